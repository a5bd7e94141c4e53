#!/usr/bin/env node
// The unbundled entry point (dist/server/main.js). `npm start`, the bin and the image run the bundled one,
// dist/cfn-local.cjs (server/launcher.cts), which starts faster; both take the same flags (server/start.ts).
import { runFromCommandLine } from './start.js';

runFromCommandLine();
