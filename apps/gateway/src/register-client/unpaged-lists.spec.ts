import { RawJson, RegisterRpc, type ListReply, type RawQuery } from '@custodian/contracts';
import type { AccessRecord } from '../access/access-record';
import { loadGatewayConfig } from '../config/gateway-config';
import type { RegisterClient } from './register-client';
import { UnpagedLists } from './unpaged-lists';

/** What the register would answer, and every message the gateway sent it. */
class Register {
  readonly sent: Array<{ pattern: string; workspace: string; query: RawQuery; known?: string }> =
    [];
  /** The current bytes per workspace, and their tag. */
  readonly current = new Map<string, { tag: string; bytes: Buffer }>();

  call(
    contract: { pattern: string },
    access: AccessRecord,
    message: { query: RawQuery; known?: string },
  ): Promise<ListReply<unknown>> {
    this.sent.push({ pattern: contract.pattern, workspace: access.workspaceId, ...message });
    if (message.query.page !== undefined) {
      return Promise.resolve({ data: [], page: 1, pageSize: 50, total: 0 });
    }
    const now = this.current.get(access.workspaceId) ?? { tag: 'f.0', bytes: Buffer.from('[]') };
    if (message.known === now.tag) return Promise.resolve({ unchanged: now.tag });
    return Promise.resolve(new RawJson(now.bytes, now.tag));
  }

  set(workspace: string, tag: string, json: unknown): void {
    this.current.set(workspace, { tag, bytes: Buffer.from(JSON.stringify(json)) });
  }
}

function access(workspaceId: string): AccessRecord {
  return { workspaceId } as AccessRecord;
}

function lists(register: Register, cacheMb = 1): UnpagedLists {
  const config = loadGatewayConfig({ UNPAGED_CACHE_MB: String(cacheMb) });
  return new UnpagedLists(register as unknown as RegisterClient, config);
}

const text = (reply: unknown) => (reply as RawJson).bytes.toString('utf8');

describe('UnpagedLists', () => {
  it('quotes the tag of the bytes it keeps, and answers them again while they are current', async () => {
    const register = new Register();
    register.set('w1', 'f.1', [{ id: 'a1' }]);
    const unpaged = lists(register);

    expect(text(await unpaged.list(RegisterRpc.assetsList, access('w1'), {}))).toBe(
      '[{"id":"a1"}]',
    );
    const again = await unpaged.list(RegisterRpc.assetsList, access('w1'), {});
    expect(text(again)).toBe('[{"id":"a1"}]');
    expect((again as RawJson).tag).toBe('f.1');
    expect(register.sent.map((message) => message.known)).toEqual([undefined, 'f.1']);

    // A change: the register answers the new bytes, which replace the old.
    register.set('w1', 'f.2', [{ id: 'a1' }, { id: 'a2' }]);
    expect(text(await unpaged.list(RegisterRpc.assetsList, access('w1'), {}))).toBe(
      '[{"id":"a1"},{"id":"a2"}]',
    );
    await unpaged.list(RegisterRpc.assetsList, access('w1'), {});
    expect(register.sent.map((message) => message.known)).toEqual([undefined, 'f.1', 'f.1', 'f.2']);
  });

  it('keeps each workspace, list and query apart, whatever the order of its parameters', async () => {
    const register = new Register();
    register.set('w1', 'f.1', ['w1']);
    register.set('w2', 'f.1', ['w2']);
    const unpaged = lists(register);

    await unpaged.list(RegisterRpc.assetsList, access('w1'), { status: 'active', search: 'x' });
    // Another workspace with the same tag never gets w1's bytes: it holds no copy to quote.
    expect(text(await unpaged.list(RegisterRpc.assetsList, access('w2'), {}))).toBe('["w2"]');
    await unpaged.list(RegisterRpc.peopleList, access('w1'), { status: 'active', search: 'x' });
    await unpaged.list(RegisterRpc.assetsList, access('w1'), { search: 'x', status: 'active' });
    expect(register.sent.map((message) => [message.pattern, message.known])).toEqual([
      ['assets.list', undefined],
      ['assets.list', undefined],
      ['people.list', undefined],
      ['assets.list', 'f.1'],
    ]);
  });

  it('never keeps pages, and quotes nothing for them', async () => {
    const register = new Register();
    const unpaged = lists(register);
    await unpaged.list(RegisterRpc.assetsList, access('w1'), { page: '1' });
    await unpaged.list(RegisterRpc.assetsList, access('w1'), { page: '1' });
    expect(register.sent.map((message) => message.known)).toEqual([undefined, undefined]);
    expect(unpaged.size).toEqual({ lists: 0, bytes: 0 });
  });

  it('stays within its memory, dropping the least recently used list first', async () => {
    const register = new Register();
    // 1 MiB of room, so a list of 200 KiB fits and at most five of them.
    const big = (name: string) => [name, 'x'.repeat(200 * 1024)];
    for (const workspace of ['w1', 'w2', 'w3', 'w4', 'w5', 'w6']) {
      register.set(workspace, 'f.1', big(workspace));
    }
    const unpaged = lists(register, 1);
    for (const workspace of ['w1', 'w2', 'w3', 'w4', 'w5']) {
      await unpaged.list(RegisterRpc.assetsList, access(workspace), {});
    }
    expect(unpaged.size.lists).toBe(5);
    await unpaged.list(RegisterRpc.assetsList, access('w1'), {}); // w1 is now the most recent
    await unpaged.list(RegisterRpc.assetsList, access('w6'), {}); // w2 goes
    expect(unpaged.size.lists).toBe(5);
    expect(unpaged.size.bytes).toBeLessThanOrEqual(1024 * 1024);

    register.sent.length = 0;
    await unpaged.list(RegisterRpc.assetsList, access('w1'), {});
    await unpaged.list(RegisterRpc.assetsList, access('w2'), {});
    expect(register.sent.map((message) => message.known)).toEqual(['f.1', undefined]);
  });

  it('keeps nothing larger than a quarter of its room, nor anything at all with 0', async () => {
    const register = new Register();
    register.set('w1', 'f.1', ['x'.repeat(300 * 1024)]);
    const small = lists(register, 1);
    await small.list(RegisterRpc.assetsList, access('w1'), {});
    expect(small.size.lists).toBe(0);

    register.set('w1', 'f.1', ['small']);
    const none = lists(register, 0);
    await none.list(RegisterRpc.assetsList, access('w1'), {});
    await none.list(RegisterRpc.assetsList, access('w1'), {});
    expect(register.sent.slice(-2).map((message) => message.known)).toEqual([undefined, undefined]);
  });

  it('asks again for the bytes when told unchanged about a copy it no longer holds', async () => {
    const register = new Register();
    register.set('w1', 'f.1', ['w1']);
    const unpaged = lists(register);
    // A register that answers unchanged to a request that quoted nothing it holds.
    const call = register.call.bind(register);
    let first = true;
    register.call = (contract, who, message) => {
      if (first) {
        first = false;
        return Promise.resolve({ unchanged: 'f.1' });
      }
      return call(contract, who, message);
    };
    expect(text(await unpaged.list(RegisterRpc.assetsList, access('w1'), {}))).toBe('["w1"]');
    expect(register.sent).toHaveLength(1);
  });
});
