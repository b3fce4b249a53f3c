/** The variables ink's `is-in-ci` reads once, when ink is first imported. */
const CI_MARKERS = ['CI', 'CONTINUOUS_INTEGRATION'] as const;

/**
 * Imports a terminal app's module (and with it ink) with the CI markers hidden, then puts them back.
 * Why: where CI is set (CI runners, some cloud shells and dev containers) ink writes nothing until the app exits,
 * so a person at a real terminal would look at a blank screen. The apps only start on a TTY, so a person is there.
 * The markers come back at once so that anything the app spawns ($EDITOR, say) sees the environment it was given.
 */
export async function loadTerminalApp<T>(load: () => Promise<T>): Promise<T> {
  const saved = CI_MARKERS.map((name) => [name, process.env[name]] as const);
  for (const [name] of saved) delete process.env[name];
  try {
    return await load();
  } finally {
    for (const [name, value] of saved) if (value !== undefined) process.env[name] = value;
  }
}
