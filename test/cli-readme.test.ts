// The README's "Operator CLI" block, read from README.md and run top to bottom on a fresh data directory (D18).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './support/processes.js';
import { needs } from './support/services.js';

const README = new URL('../README.md', import.meta.url);
const dataDir = mkdtempSync(path.join(tmpdir(), 'venue-loyalty-cli-readme-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
// A fresh data directory is the embedded database's: the PGlite pass runs it, the PostgreSQL pass skips it.
const embeddedGate = await needs('embedded');

/** The commands of the first ```sh block under "## Operator CLI", with `\` continuations joined. */
function readmeCliCommands(markdown: string): string[] {
  const section = markdown.split(/^## Operator CLI$/m)[1];
  const block = section && /^```sh\n([\s\S]*?)^```$/m.exec(section)?.[1];
  if (!block) throw new Error('README.md has no ```sh block under "## Operator CLI"');
  return block
    .replace(/\\\n/g, ' ')
    .split('\n')
    .filter((line) => line.trim() && !line.trim().startsWith('#'));
}

/** A command line split as sh splits it: '…' literal, "…" with \-escapes, an unquoted # starting a comment. */
function shellWords(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw new Error(`unterminated ' in: ${line}`);
      word = (word ?? '') + line.slice(i + 1, end);
      i = end;
    } else if (c === '"') {
      let j = i + 1;
      let text = '';
      for (; j < line.length && line[j] !== '"'; j++) {
        if (line[j] === '\\' && '"\\$`'.includes(line[j + 1] ?? '')) j++;
        text += line[j];
      }
      if (j >= line.length) throw new Error(`unterminated " in: ${line}`);
      word = (word ?? '') + text;
      i = j;
    } else if (/\s/.test(c)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (c === '#' && word === undefined) {
      break;
    } else {
      word = (word ?? '') + c;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}

describe('reading the README block', () => {
  it('splits lines as the shell does', () => {
    expect(shellWords(`npm run cli -- a --name "Harbour \\"Bar\\"" --rules '{"x":true}'  # note`)).toEqual([
      'npm', 'run', 'cli', '--', 'a', '--name', 'Harbour "Bar"', '--rules', '{"x":true}',
    ]);
    expect(readmeCliCommands('## Operator CLI\n\n```sh\nnpm run cli -- a \\\n  --b c\n# aside\n```\n')).toEqual(['npm run cli -- a    --b c']);
  });
});

embeddedGate.describe("the README's CLI block", () => {
  it('runs top to bottom on a fresh data directory, every command exiting 0', async () => {
    const commands = readmeCliCommands(readFileSync(README, 'utf8'));
    expect(commands.length).toBeGreaterThanOrEqual(10);
    // `<program id>`, `<key id>`: what the latest `program create`, `key create` printed, as a reader would copy it.
    const printedIds = new Map<string, string>();
    for (const command of commands) {
      const line = command.replace(/<(\w+) id>/g, (placeholder, noun: string) => {
        const id = printedIds.get(noun);
        if (!id) throw new Error(`${placeholder} in "${command}" before any "${noun} create" printed an id`);
        return id;
      });
      const words = shellWords(line);
      expect(words.slice(0, 4), command).toEqual(['npm', 'run', 'cli', '--']);
      const result = await runCli(words.slice(4), { DATA_DIR: dataDir, DATABASE_URL: '' });
      expect(result.code, `${command}\n${result.stdout}${result.stderr}`).toBe(0);
      const id = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/.exec(result.stdout)?.[0];
      if (words[5] === 'create' && id) printedIds.set(words[4]!, id);
    }
  }, 900_000);
});
