import { describeFaultMatrix } from './harness.js';

describeFaultMatrix('status');
