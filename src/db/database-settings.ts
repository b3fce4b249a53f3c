/**
 * What db/ needs of a project's config to reach its database: the folder relative paths are resolved against, the
 * real server's URL or the embedded server's data directory and port, and the game's migrations folder. A loaded
 * config is one; db/ never imports config/.
 */
export interface DatabaseSettings {
  baseDir: string;
  database: { url?: string | undefined; embedded: { dataDir: string; port: number } };
  migrations?: string | undefined;
}
