// V8's allocation-site pretenuring, off for the portal's processes (decision 0050). Under a
// steady stream of page requests V8 judged some of a render's allocation sites long-lived and
// began allocating their objects in the old generation, where each lived a few milliseconds:
// a full mark-compact about once a second instead of every 2-3 s, and its pauses in p99.
import { setFlagsFromString } from 'node:v8';

setFlagsFromString('--no-allocation-site-pretenuring');
