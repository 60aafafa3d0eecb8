import { describeFaultMatrix } from './harness.js';

describeFaultMatrix('deposit');
