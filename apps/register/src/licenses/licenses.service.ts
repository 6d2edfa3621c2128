import {
  CONSOLE_KEY_PREFIX,
  DomainError,
  LICENSE_PAGE_SIZE_DEFAULT,
  LICENSE_PAGE_SIZE_MAX,
  callerActivity,
  type ActivityChange,
  type AssignSeatInput,
  type CallerContext,
  type CreateLicenseInput,
  type License,
  type LicenseKey,
  type LicenseListQuery,
  type LicenseSeat,
  type Page,
  type UpdateLicenseInput,
} from '@custodian/contracts';
import { OutboxWriter, assertIfMatch } from '@custodian/messaging';
import { ActivityLog, changedFields, newId, queryRows } from '@custodian/persistence';
import { SecretCipherError } from '@custodian/secret-cipher';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { findMemberRow } from '../members/member.store';
import { pageParams } from '../listing/page-params';
import { ReadTransactions } from '../requests/read-transactions';
import { WriteTransactions } from '../requests/write-transactions';
import { armLicenseExpiry } from './license-expiry';
import { LicenseKeyCipher } from './license-key-cipher';
import { seatChanged } from './license-seats';
import {
  deleteSeat,
  findLicenseRow,
  findSeatRow,
  insertLicense,
  insertSeat,
  licensePage,
  seatHeldBy,
  seatsOf,
  setLicenseBinned,
  storedProductKey,
  toLicense,
  toSeat,
  updateLicense,
  type LicenseWrite,
} from './license.store';

/** Who may read a product key in the console (a write key acts as admin). */
const KEY_READERS = new Set(['owner', 'admin']);

/**
 * Software licences and their seats. Every write runs in one transaction with its event and
 * its feed entry. A seat is assigned under the licence's row lock, so the count is exact
 * however many assigns race: the one that would exceed `seats` is a 409 naming the licence and
 * its count. The product key is encrypted with LICENSE_KEY_SECRETS before it is stored and is
 * never in a view or an event; reading it is a write (its feed entry) for admins and write keys.
 */
@Injectable()
export class LicensesService {
  constructor(
    private readonly reads: ReadTransactions,
    private readonly writes: WriteTransactions,
    private readonly outbox: OutboxWriter,
    private readonly activity: ActivityLog,
    private readonly keys: LicenseKeyCipher,
  ) {}

  get(caller: CallerContext, id: string): Promise<License> {
    return this.reads.run(async (db) =>
      toLicense(await findLicenseRow(db, caller.workspaceId, id)),
    );
  }

  list(caller: CallerContext, query: LicenseListQuery): Promise<Page<License>> {
    const { page, pageSize } = pageParams(query, LICENSE_PAGE_SIZE_DEFAULT, LICENSE_PAGE_SIZE_MAX);
    return this.reads.heavy(async (db) => {
      const { rows, total } = await licensePage(
        db,
        {
          workspaceId: caller.workspaceId,
          ...(query.search ? { search: query.search } : {}),
          ...(query.expires_before ? { expiresBefore: query.expires_before } : {}),
        },
        page,
        pageSize,
      );
      return { data: rows.map(toLicense), page, pageSize, total };
    });
  }

  create(caller: CallerContext, input: CreateLicenseInput): Promise<License> {
    const workspaceId = caller.workspaceId;
    return this.writes.run(workspaceId, async (tx) => {
      const id = newId('lic');
      await insertLicense(tx, id, workspaceId, {
        ...this.columns(input),
        name: input.name.trim(),
      });
      // Its dates right after its row (ADR 0020): the new row is this transaction's alone.
      await armLicenseExpiry(tx, workspaceId, id, input.expires_on ?? null);
      const license = toLicense(await findLicenseRow(tx, workspaceId, id));
      await this.outbox.write(tx, workspaceId, 'license.created', license);
      await this.record(tx, caller, license, 'created', licenseChanges(null, license));
      return license;
    });
  }

  /** `ifMatch`: the client's If-Match, checked against the licence under its row lock. */
  update(
    caller: CallerContext,
    id: string,
    input: UpdateLicenseInput,
    ifMatch?: readonly string[],
  ): Promise<License> {
    const workspaceId = caller.workspaceId;
    return this.writes.run(workspaceId, async (tx) => {
      const current = await findLicenseRow(tx, workspaceId, id, { forUpdate: true });
      assertIfMatch(ifMatch, toLicense(current), `License ${id}`);
      if (input.seats !== undefined && input.seats !== null && input.seats < current.seats_used) {
        throw new DomainError(
          'conflict',
          `seats: licence ${current.name} (${id}) has ${current.seats_used} seats in use; ` +
            `release ${current.seats_used - input.seats} before lowering it to ${input.seats}`,
        );
      }
      // A new date re-arms its notices, right after the row's lock (ADR 0020).
      if (input.expires_on !== undefined && input.expires_on !== current.expires_on) {
        await armLicenseExpiry(tx, workspaceId, id, input.expires_on);
      }
      const columns = this.columns(input);
      if (input.name !== undefined) columns.name = input.name.trim();
      await updateLicense(tx, id, columns);
      const before = toLicense(current);
      const license = toLicense(await findLicenseRow(tx, workspaceId, id));
      const changes = licenseChanges(before, license);
      // A new product key is a change even when has_product_key stays true.
      if (input.product_key && before.has_product_key) {
        changes.push({ field: 'product_key', from: '(set)', to: '(replaced)' });
      }
      if (changes.length === 0) return before;
      await this.outbox.write(tx, workspaceId, 'license.updated', license);
      await this.record(tx, caller, license, 'updated', changes);
      return license;
    });
  }

  /** To the bin: out of lists and fetches, its seats kept for a restore. */
  delete(caller: CallerContext, id: string, ifMatch?: readonly string[]): Promise<License> {
    const workspaceId = caller.workspaceId;
    return this.writes.run(workspaceId, async (tx) => {
      const license = toLicense(await findLicenseRow(tx, workspaceId, id, { forUpdate: true }));
      assertIfMatch(ifMatch, license, `License ${id}`);
      // In the bin, it expires for nobody; a restore arms what is still ahead.
      await armLicenseExpiry(tx, workspaceId, id, null);
      await setLicenseBinned(tx, id, true);
      await this.outbox.write(tx, workspaceId, 'license.deleted', license);
      await this.record(tx, caller, license, 'deleted', []);
      return license;
    });
  }

  restore(caller: CallerContext, id: string): Promise<License> {
    const workspaceId = caller.workspaceId;
    return this.writes.run(workspaceId, async (tx) => {
      const binned = await findLicenseRow(tx, workspaceId, id, { forUpdate: true, binned: true });
      // What is still ahead, and the expiry if it was never told; nothing fires twice.
      await armLicenseExpiry(tx, workspaceId, id, binned.expires_on, { passed: false });
      await setLicenseBinned(tx, id, false);
      const license = toLicense(await findLicenseRow(tx, workspaceId, id));
      await this.outbox.write(tx, workspaceId, 'license.updated', license);
      await this.record(tx, caller, license, 'restored', []);
      return license;
    });
  }

  /** The product key, decrypted for this answer; the reveal is in the feed. */
  revealKey(caller: CallerContext, id: string): Promise<LicenseKey> {
    const workspaceId = caller.workspaceId;
    return this.writes.run(workspaceId, async (tx) => {
      if (!(await mayReadKeys(tx, caller))) {
        throw new DomainError('forbidden', 'Only an admin or the owner may read a product key');
      }
      const license = toLicense(await findLicenseRow(tx, workspaceId, id));
      const stored = await storedProductKey(tx, id);
      let productKey: string | null = null;
      if (stored !== null) {
        try {
          productKey = this.keys.cipher.decrypt(stored);
        } catch (error) {
          if (!(error instanceof SecretCipherError)) throw error;
          // A key dropped from LICENSE_KEY_SECRETS too soon: say which, not a 500.
          throw new DomainError(
            'conflict',
            `The product key of licence ${id} is encrypted with key ${error.keyId ?? '?'}, ` +
              'which LICENSE_KEY_SECRETS no longer holds; set the key again, or write a new one',
          );
        }
      }
      await this.record(tx, caller, license, 'key_revealed', []);
      return { id, product_key: productKey };
    });
  }

  seats(caller: CallerContext, id: string): Promise<LicenseSeat[]> {
    return this.reads.run(async (db) => {
      await findLicenseRow(db, caller.workspaceId, id);
      return (await seatsOf(db, id)).map(toSeat);
    });
  }

  assignSeat(caller: CallerContext, id: string, input: AssignSeatInput): Promise<LicenseSeat> {
    const personId = input.person_id;
    const assetId = input.asset_id;
    if ((personId === undefined) === (assetId === undefined)) {
      throw new DomainError(
        'invalid_input',
        personId === undefined
          ? 'Send person_id or asset_id: the seat is for one of them'
          : 'Send person_id or asset_id, not both',
      );
    }
    const workspaceId = caller.workspaceId;
    return this.writes.run(workspaceId, async (tx) => {
      // A licence not found (another workspace's) is the 404 it is, before the body is read;
      // no lock yet, so the order below holds.
      await findLicenseRow(tx, workspaceId, id);
      // The holder first (FOR SHARE: an offboarding, which locks the person and then their
      // licences, waits for this assign or comes first; never a cycle), then the licence:
      // every assign of it waits there, so the count below is exact.
      const holder = personId
        ? await seatPerson(tx, workspaceId, personId)
        : await seatAsset(tx, workspaceId, assetId ?? '');
      const license = await findLicenseRow(tx, workspaceId, id, { forUpdate: true });
      if (await seatHeldBy(tx, id, { personId, assetId })) {
        throw new DomainError(
          'conflict',
          `${holder.name} (${holder.id}) already holds a seat of licence ${license.name} (${id})`,
        );
      }
      if (license.seats !== null && license.seats_used >= license.seats) {
        throw new DomainError(
          'conflict',
          `Licence ${license.name} (${id}) has all ${license.seats} seats in use; release one ` +
            'or raise seats first',
        );
      }
      const seatId = newId('lst');
      await insertSeat(tx, {
        id: seatId,
        workspace_id: workspaceId,
        license_id: id,
        person_id: personId ?? null,
        asset_id: assetId ?? null,
      });
      const seat = toSeat(await findSeatRow(tx, id, seatId));
      await seatChanged(
        { tx, outbox: this.outbox, activity: this.activity, caller },
        { seats: license.seats, seatsUsed: license.seats_used + 1, seat, how: 'assigned' },
      );
      return seat;
    });
  }

  releaseSeat(caller: CallerContext, id: string, seatId: string): Promise<LicenseSeat> {
    const workspaceId = caller.workspaceId;
    return this.writes.run(workspaceId, async (tx) => {
      const license = await findLicenseRow(tx, workspaceId, id, { forUpdate: true });
      const seat = toSeat(await findSeatRow(tx, id, seatId));
      await deleteSeat(tx, seatId);
      await seatChanged(
        { tx, outbox: this.outbox, activity: this.activity, caller },
        { seats: license.seats, seatsUsed: license.seats_used - 1, seat, how: 'released' },
      );
      return seat;
    });
  }

  /** The body's columns as stored: trimmed texts, the product key encrypted. */
  private columns(input: UpdateLicenseInput | CreateLicenseInput): LicenseWrite {
    const columns: LicenseWrite = {};
    if (input.vendor !== undefined) columns.vendor = input.vendor?.trim() ?? null;
    if (input.seats !== undefined) columns.seats = input.seats;
    if (input.expires_on !== undefined) columns.expires_on = input.expires_on;
    if (input.cost !== undefined) columns.cost = input.cost;
    if (input.notes !== undefined) columns.notes = input.notes;
    if (input.product_key !== undefined) {
      columns.product_key =
        input.product_key === null ? null : this.keys.cipher.encrypt(input.product_key);
    }
    return columns;
  }

  private record(
    tx: EntityManager,
    caller: CallerContext,
    license: License,
    action: 'created' | 'updated' | 'deleted' | 'restored' | 'key_revealed',
    changes: ActivityChange[],
  ): Promise<void> {
    return this.activity.record(tx, caller.workspaceId, {
      ...callerActivity(caller),
      recordType: 'license',
      recordId: license.id,
      recordName: license.name,
      action,
      changes,
    });
  }
}

function licenseChanges(before: License | null, after: License): ActivityChange[] {
  return changedFields(before, after, {
    name: (license) => license.name,
    vendor: (license) => license.vendor,
    seats: (license) => license.seats,
    expires_on: (license) => license.expires_on,
    cost: (license) => license.cost,
    notes: (license) => license.notes,
    has_product_key: (license) => license.has_product_key,
  });
}

/** A write key acts as admin; a console member reads keys as owner or admin. */
async function mayReadKeys(db: EntityManager, caller: CallerContext): Promise<boolean> {
  if (!caller.keyId.startsWith(CONSOLE_KEY_PREFIX)) return caller.scope === 'write';
  try {
    const member = await findMemberRow(
      db,
      caller.workspaceId,
      caller.keyId.slice(CONSOLE_KEY_PREFIX.length),
    );
    return KEY_READERS.has(member.role);
  } catch (error) {
    if (error instanceof DomainError && error.code === 'not_found') return false;
    throw error;
  }
}

/** An active person of the workspace, locked FOR SHARE (an offboarding waits for the seat). */
async function seatPerson(
  tx: EntityManager,
  workspaceId: string,
  personId: string,
): Promise<{ id: string; name: string }> {
  const [person] = await queryRows<{ id: string; full_name: string; status: string }>(
    tx,
    `SELECT id, full_name, status FROM register.people
      WHERE id = $1 AND workspace_id = $2 FOR SHARE`,
    [personId, workspaceId],
  );
  if (!person) throw new DomainError('invalid_input', `person_id: person ${personId} not found`);
  if (person.status !== 'active') {
    throw new DomainError(
      'invalid_input',
      `person_id: ${person.full_name} (${person.id}) is inactive and cannot hold a seat`,
    );
  }
  return { id: person.id, name: person.full_name };
}

/** An asset of the workspace, out of the bin. */
async function seatAsset(
  tx: EntityManager,
  workspaceId: string,
  assetId: string,
): Promise<{ id: string; name: string }> {
  const [asset] = await queryRows<{ id: string; name: string }>(
    tx,
    `SELECT id, name FROM register.assets WHERE id = $1 AND workspace_id = $2 FOR SHARE`,
    [assetId, workspaceId],
  );
  if (!asset) throw new DomainError('invalid_input', `asset_id: asset ${assetId} not found`);
  return asset;
}
