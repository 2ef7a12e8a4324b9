// What the docs and the dashboard say about retries and disabling is derived here from the code's defaults, so the
// two cannot drift apart again (docs/webhooks.md, the dashboard's webhooks page, D15).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8').replace(/\s+/g, ' ');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NUMBERS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'];

/** 5 s, 5 min, 2 h: as the docs spell a delay. */
const spelled = (ms: number) => (ms % HOUR === 0 ? `${ms / HOUR} h` : ms % 60_000 === 0 ? `${ms / 60_000} min` : `${ms / 1000} s`);

describe('retry and disabling figures in the docs and the dashboard', () => {
  const { webhooks } = loadConfig({});
  const retriedFor = Math.round(webhooks.retryScheduleMs.reduce((a, b) => a + b, 0) / HOUR);
  const disabledAfterDays = webhooks.disableAfterMs / DAY;

  it('the defaults are the design\'s: retries for about 28 hours, an endpoint disabled after 10 failures and 3 days', () => {
    expect([retriedFor, webhooks.disableAfterFailures, disabledAfterDays]).toEqual([28, 10, 3]);
  });

  it('docs/webhooks.md says the schedule, the attempts, the hours and the disabling as the code does', () => {
    const doc = read('docs/webhooks.md');
    const delays = webhooks.retryScheduleMs.map(spelled);
    expect(doc).toContain(`**${delays.slice(0, -1).join(', ')} and ${delays.at(-1)}**`);
    expect(doc).toContain(`${NUMBERS[webhooks.retryScheduleMs.length + 1]} attempts over about ${retriedFor} hours`);
    expect(doc).toContain(`with retries for about ${retriedFor} hours`);
    expect(doc).toContain(`**${webhooks.disableAfterFailures} consecutive failed attempts with no success for ${disabledAfterDays} days**`);
    expect(doc).toContain(`(each ±${Math.round(webhooks.retryJitter * 100)} %)`);
    expect(doc).not.toMatch(/retries for (three|3) days|about a day/);
  });

  it('the dashboard says the same', () => {
    const page = read('web/src/pages/Webhooks.tsx');
    expect(page).toContain(`retried for about ${retriedFor} hours`);
    expect(page).toContain(`${webhooks.disableAfterFailures} failed attempts in a row and no success for ${disabledAfterDays} days`);
    expect(page).not.toMatch(/about a day/);
  });
});
