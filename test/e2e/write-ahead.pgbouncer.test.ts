// The write-ahead protocol's races and kills on the PostgreSQL through PgBouncer store (test/helpers/write-ahead-suite.ts).
import { writeAheadOn } from '../helpers/write-ahead-suite.js';

writeAheadOn('PostgreSQL through PgBouncer');
