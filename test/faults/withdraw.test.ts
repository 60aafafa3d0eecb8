import { describeFaultMatrix } from './harness.js';

describeFaultMatrix('withdraw');
