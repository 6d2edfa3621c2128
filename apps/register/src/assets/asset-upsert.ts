import {
  DomainError,
  type CallerContext,
  type CreateAssetInput,
  type UpsertAssetMessage,
  type UpsertedAsset,
} from '@custodian/contracts';
import { Injectable } from '@nestjs/common';
import { WriteTransactions } from '../requests/write-transactions';
import { translateTagConflict } from './asset.store';
import { AssetsService } from './assets.service';

const NAMED = { serial_number: 'serial number', asset_tag: 'asset tag' } as const;

/**
 * PUT /assets/by-serial/{serial} and /assets/by-tag/{tag}: create or change, in one step, the
 * asset a client knows by its own identifier. One transaction holds an advisory lock on the
 * (workspace, identifier) pair from before the lookup to the commit, so two upserts of the same
 * new serial number make one asset, the second changing it. The work is POST's and PATCH's own
 * (createIn, updateIn): the same rules, events and feed entries.
 */
@Injectable()
export class AssetUpserts {
  constructor(
    private readonly writes: WriteTransactions,
    private readonly assets: AssetsService,
  ) {}

  async upsert(caller: CallerContext, message: UpsertAssetMessage): Promise<UpsertedAsset> {
    const { by, body } = message;
    const key = message.key;
    const what = NAMED[by];
    if (key.trim() !== key || key.length === 0) {
      throw new DomainError(
        'invalid_input',
        `the ${what} in the path must not start or end with a space`,
      );
    }
    if (by === 'asset_tag' && [...key].length > 64) {
      throw new DomainError(
        'invalid_input',
        'the asset tag in the path must be at most 64 characters',
      );
    }
    const given = body[by];
    if (given !== undefined && given !== key) {
      throw new DomainError(
        'invalid_input',
        `${by} in the body must be the ${what} in the path, or left out ` +
          '(to change it, PATCH /assets/{id})',
      );
    }
    try {
      return await this.writes.run(caller.workspaceId, async (tx) => {
        // A hash of the pair (two pairs sharing one only wait for each other a moment).
        await tx.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [
          JSON.stringify(['custodian.asset-upsert', caller.workspaceId, by, key]),
        ]);
        const found = await tx.query<Array<{ id: string }>>(
          `SELECT id FROM register.assets
           WHERE workspace_id = $1 AND lower(${by}) = lower($2) AND ${by} = $2
           ORDER BY id LIMIT 2`,
          [caller.workspaceId, key],
        );
        if (found.length > 1) {
          throw new DomainError(
            'conflict',
            `more than one asset has the ${what} ${key}: change one with PATCH /assets/{id}`,
          );
        }
        const [existing] = found;
        if (existing) {
          if (message.create_only) {
            throw new DomainError(
              'precondition_failed',
              `an asset has the ${what} ${key} already (${existing.id}); If-None-Match: * ` +
                'creates only',
            );
          }
          const asset = await this.assets.updateIn(
            tx,
            caller,
            existing.id,
            body,
            undefined,
            message.if_match,
          );
          return { created: false, asset };
        }
        if (message.if_match) {
          throw new DomainError(
            'precondition_failed',
            `no asset has the ${what} ${key}: If-Match changes only one that exists`,
          );
        }
        if (body.name === undefined) {
          throw new DomainError(
            'invalid_input',
            `name is required to create an asset (no asset has the ${what} ${key})`,
          );
        }
        const input: CreateAssetInput = { ...body, name: body.name, [by]: key };
        return { created: true, asset: await this.assets.createIn(tx, caller, input) };
      });
    } catch (error) {
      throw translateTagConflict(error, by === 'asset_tag' ? key : body.asset_tag);
    }
  }
}
