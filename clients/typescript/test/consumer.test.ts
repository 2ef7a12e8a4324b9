// The built types in a project of their own, as a browser or edge integrator has it: strict, no Node types
// (`types: []`, lib ES2022 and DOM, library files checked too); `tsc --noEmit` passes and never loads @types/node.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { promisify } from 'node:util';

const PACKAGE = path.resolve(import.meta.dirname, '../..');
const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc');

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
    skipLibCheck: false,
    lib: ['ES2022', 'DOM'],
    types: [],
  },
  include: ['*.ts'],
};

const CONSUMER = `import { VenueLoyalty, VenueLoyaltyConnectionError, VenueLoyaltyError, WebhookVerificationError, type ErrorObjectOf } from '@venue-loyalty/client';

const loyalty = new VenueLoyalty({ baseUrl: 'https://loyalty.example/api', apiKey: 'sk_test_example' });

export async function refund(externalId: string, amount: number): Promise<number> {
  try {
    const refund = await loyalty.post('/v1/transactions/{external_id}/refunds', {
      params: { path: { external_id: externalId } },
      body: { external_id: \`\${externalId}-R\`, amount },
    });
    return refund.amount;
  } catch (err) {
    if (err instanceof VenueLoyaltyConnectionError) return 0;
    if (!(err instanceof VenueLoyaltyError)) throw err;
    if (err.code === 'refund_exceeds_check') return err.error.refundable;
    if (err.code === 'parameter_invalid') for (const item of err.error.errors ?? []) console.log(item.index, item.param, item.message);
    // @ts-expect-error: max_redeem is redeem_limit_exceeded's field, not insufficient_balance's
    if (err.code === 'insufficient_balance') return err.error.max_redeem;
    if (err.code === 'unexpected_response') {
      const none: undefined = err.error;
      return none ?? -1;
    }
    throw new Error(\`\${err.code} (\${err.status}, request \${err.requestId ?? '?'})\`);
  }
}

export function verified(body: string, headers: Headers, secret: string): string | undefined {
  try {
    return loyalty.webhooks.verify(body, headers, secret).type;
  } catch (err) {
    if (err instanceof WebhookVerificationError) return undefined;
    throw err;
  }
}

export const limit: ErrorObjectOf<'redeem_limit_exceeded'>['max_redeem'] = 1240;
`;

describe('a consumer project without Node types', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'venue-loyalty-consumer-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('type-checks against the built types with tsc --noEmit, @types/node never loaded', async () => {
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ type: 'module', private: true }));
    writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
    writeFileSync(path.join(dir, 'till.ts'), CONSUMER);
    mkdirSync(path.join(dir, 'node_modules/@venue-loyalty'), { recursive: true });
    symlinkSync(PACKAGE, path.join(dir, 'node_modules/@venue-loyalty/client'), 'dir');
    const result = await promisify(execFile)(process.execPath, [TSC, '--noEmit', '--listFiles', '-p', dir]).catch(
      (err: { stdout: string; stderr: string }) => assert.fail(`tsc refused the consumer project:\n${err.stdout}${err.stderr}`),
    );
    const files = result.stdout.split('\n').filter(Boolean);
    assert.ok(files.some((file) => file.endsWith('dist/index.d.ts')), 'the package types were checked');
    assert.deepEqual(files.filter((file) => file.includes('@types/node')), []);
  });
});
