#!/usr/bin/env node
// A shim: the program lives in dist/ (built by `npm ci` through the prepare script).
import { main } from '../dist/cli/main.js';

process.exitCode = await main(process.argv.slice(2));
