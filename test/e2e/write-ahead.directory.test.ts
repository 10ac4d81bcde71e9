// The write-ahead protocol's races and kills on the directory store (test/helpers/write-ahead-suite.ts).
import { writeAheadOn } from '../helpers/write-ahead-suite.js';

writeAheadOn('directory');
