import { afterEach, describe, expect, it } from 'vitest';
import { loadTerminalApp } from '../../src/tui/load-terminal-app.js';

describe('loadTerminalApp', () => {
  const before = { CI: process.env.CI, CONTINUOUS_INTEGRATION: process.env.CONTINUOUS_INTEGRATION };
  afterEach(() => {
    for (const [name, value] of Object.entries(before)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  it('hides CI and CONTINUOUS_INTEGRATION while the app loads and puts them back after', async () => {
    process.env.CI = 'true';
    process.env.CONTINUOUS_INTEGRATION = '1';
    const seen = await loadTerminalApp(async () => ({
      ci: 'CI' in process.env,
      continuous: 'CONTINUOUS_INTEGRATION' in process.env,
    }));
    expect(seen).toEqual({ ci: false, continuous: false });
    expect(process.env.CI).toBe('true');
    expect(process.env.CONTINUOUS_INTEGRATION).toBe('1');
  });

  it('puts them back when the load fails, and does not invent one that was not set', async () => {
    process.env.CI = 'yes';
    delete process.env.CONTINUOUS_INTEGRATION;
    await expect(loadTerminalApp(() => Promise.reject(new Error('no such module')))).rejects.toThrow('no such module');
    expect(process.env.CI).toBe('yes');
    expect('CONTINUOUS_INTEGRATION' in process.env).toBe(false);
  });
});
