// One process at a time may open an embedded (PGlite) data directory; a pid file says which.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export class DataDirInUseError extends Error {
  constructor(
    message: string,
    /** The process holding the directory (a running server answers backup requests: src/backup.ts). */
    readonly holder: number,
  ) {
    super(message);
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Claims the directory for this process; returns the release function. */
export function claimDataDir(dataDir: string, who: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, 'in-use.pid');
  let holder: number | undefined;
  try {
    holder = Number.parseInt(readFileSync(file, 'utf8'), 10);
  } catch {
    holder = undefined;
  }
  if (holder && holder !== process.pid && isAlive(holder)) {
    throw new DataDirInUseError(
      `The data directory ${dataDir} is in use by process ${holder}. The embedded database allows one process at a time: ` +
        'stop that process first, or run on PostgreSQL (DATABASE_URL) to use the CLI while the server runs.',
      holder,
    );
  }
  writeFileSync(file, String(process.pid));
  return () => rmSync(file, { force: true });
}
