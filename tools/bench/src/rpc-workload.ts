import { ASSET_EXAMPLE } from '@custodian/contracts';

/** The register's pattern behind `GET /assets/{id}`. */
export const RPC_PATTERN = 'assets.get';

/** Every request waits at most this long, and carries it as its TTL. */
export const RPC_TIMEOUT_MS = 10_000;

/** What the gateway sends for `GET /assets/{id}`: the resolved caller and the id. */
export const ASSET_REQUEST = {
  caller: {
    workspaceId: 'wsp_01jd8x0a1b2c3d4e5f6g7h8j9k',
    keyId: 'key_01jd8x0m1n2p3q4r5s6t7v8w9x',
    scope: 'read',
    plan: 'enterprise',
    limits: { ratePerMinute: 3000, monthlyQuota: null, assets: null, people: null, seats: 50 },
  },
  id: ASSET_EXAMPLE.id,
};

/**
 * A register reply of about 1.3 KB: the Asset example with the custom fields a customer
 * typically keeps on a laptop.
 */
export const ASSET_REPLY = {
  ...ASSET_EXAMPLE,
  custom_fields: {
    ...ASSET_EXAMPLE.custom_fields,
    purchase_price: 2499,
    supplier: 'Gravis Computervertriebsgesellschaft mbH',
    invoice_number: 'INV-2026-000314',
    cost_center: 'CC-4200 Engineering',
    warranty_until: '2029-03-01',
    ram_gb: 18,
    storage_gb: 512,
    operating_system: 'macOS 15 Sequoia',
    disk_encryption: true,
    mdm_enrolled: true,
    hostname: 'ber-mbp-mhamilton',
    wifi_mac_address: '3c:22:fb:9a:41:07',
    keyboard_layout: 'German (ISO)',
    colour: 'Space Black',
    insurance_policy: 'POL-88213-DE',
    depreciation: { method: 'straight-line', years: 3, residual_value: 250 },
    notes: 'Replacement for AT-000017 (battery swollen). Charger and USB-C hub handed over.',
  },
};

/** Bytes of the reply's JSON, for the table's header. */
export const ASSET_REPLY_BYTES = Buffer.byteLength(JSON.stringify(ASSET_REPLY));

/**
 * Stands in for the register's handler: `handlerMs` of CPU on the server's own thread (the
 * validation, mapping and serialisation a real handler does while Postgres answers in
 * another process), then the reply.
 */
export function answerAsset(handlerMs: number): typeof ASSET_REPLY {
  if (handlerMs > 0) {
    const until = process.hrtime.bigint() + BigInt(Math.round(handlerMs * 1e6));
    while (process.hrtime.bigint() < until) {
      // busy: this CPU is the handler's, the same for every transport
    }
  }
  return ASSET_REPLY;
}
