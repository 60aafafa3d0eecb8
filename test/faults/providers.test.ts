import { describeFaultMatrix } from './harness.js';

describeFaultMatrix('providers');
