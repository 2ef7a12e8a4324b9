// The project's licence, stated alike wherever a reader or a tool looks for it: LICENSE, both package.json files,
// and every OpenAPI document the service serves.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useTestApp } from './support/app.js';

const t = useTestApp();
const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');

describe('licence', () => {
  it('is MIT in LICENSE, both package.json files and the README', () => {
    expect(read('LICENSE')).toMatch(/^MIT License\n\nCopyright \(c\) 2026 Venue Loyalty contributors\n/);
    expect(JSON.parse(read('package.json')).license).toBe('MIT');
    expect(JSON.parse(read('clients/typescript/package.json')).license).toBe('MIT');
    expect(read('README.md')).toContain('MIT: see [LICENSE](LICENSE)');
  });

  it.each(['/api/v1/openapi.json', '/api/pos/v1/openapi.json', '/dashboard/api/openapi.json'])('%s states it (info.license)', async (url) => {
    const res = await t.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(200);
    expect(res.json().info.license).toEqual({ name: 'MIT', identifier: 'MIT' });
  });
});
