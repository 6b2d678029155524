#!/usr/bin/env node
// `node bin/faultlab.js …` as in earlier versions: the same command line as bin/faultlab.cjs (the package's
// bin), which starts faster because it is CommonJS.
import { createRequire } from 'node:module';

createRequire(import.meta.url)('./faultlab.cjs');
