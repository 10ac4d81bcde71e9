// What a postgres:// URL leaves out comes from the run's environment, as psql takes it: a shared config
// names the server, each person's PGUSER (and PGPASSWORD) says who connects. The URL's own parts win.
import { describe, expect, it } from 'vitest';
import { withLogin } from '../../src/state/postgres.js';

describe('the login of a PostgreSQL state URL', () => {
  it('takes the role, its password, the port and the database from the environment where the URL has none', () => {
    const env = { PGUSER: 'alice', PGPASSWORD: 'p@ss:w/rd', PGPORT: '6432', PGDATABASE: 'scheduling' };
    const url = new URL(withLogin('postgres://db.example.com', env));
    expect(decodeURIComponent(url.username)).toBe('alice');
    expect(decodeURIComponent(url.password)).toBe('p@ss:w/rd');
    expect(url.host).toBe('db.example.com:6432');
    expect(url.pathname).toBe('/scheduling');
  });

  it("leaves the URL's own parts as they are, and the URL itself when the environment adds nothing", () => {
    const given = 'postgres://bob:secret@db.example.com:5433/other?sslmode=require';
    expect(withLogin(given, { PGUSER: 'alice', PGPASSWORD: 'x', PGPORT: '6432', PGDATABASE: 'scheduling' })).toBe(given);
    expect(withLogin('postgres://db.example.com/scheduling', {})).toBe('postgres://db.example.com/scheduling');
    expect(withLogin('postgres://db.example.com/scheduling?sslmode=require', { PGUSER: 'alice' })).toBe(
      'postgres://alice@db.example.com/scheduling?sslmode=require',
    );
  });

  it('reads the environment it is given, not the process’s', () => {
    const before = process.env.PGUSER;
    process.env.PGUSER = 'from-the-process';
    try {
      expect(withLogin('postgres://db.example.com/s', {})).toBe('postgres://db.example.com/s');
    } finally {
      if (before === undefined) delete process.env.PGUSER;
      else process.env.PGUSER = before;
    }
  });
});
