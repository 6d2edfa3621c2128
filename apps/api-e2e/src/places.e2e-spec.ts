import {
  type AssetDetail,
  type AssetSummary,
  type Category,
  type ErrorBody,
  type Location,
  type Page,
  type PersonDetail,
} from '@custodian/contracts';
import { randomUUID } from 'node:crypto';
import { consoleMember } from './support/console-sign-in';
import { Tenant, TestStack } from './support/stack';

/**
 * Issue 34, items 1 and 2, over HTTP: locations as a tree and categories as records, the asset
 * and person writes that name them by name (v1) or id, the lists that filter by them, the
 * errors (cycle, depth, name taken, not empty) with their fields named, scopes, workspaces
 * apart, an Idempotency-Key replayed, and the console's routes by role. Every answer is checked
 * against docs/openapi.json (the stack's contract check).
 */
describe('locations and categories (e2e)', () => {
  const stack = new TestStack();
  let tenant: Tenant;
  let reader: Tenant;
  let stranger: Tenant;

  beforeAll(async () => {
    await stack.start();
    tenant = await stack.tenant('pro', 'write');
    reader = new Tenant(
      stack,
      tenant.workspace,
      await stack.createKey(tenant.workspace.id, 'read'),
    );
    stranger = await stack.tenant('pro', 'write');
  }, 60_000);

  afterAll(() => stack.stop());

  const place = async (body: Record<string, unknown>) => {
    const made = await tenant.post<Location>('/locations', body);
    expect(made.status).toBe(201);
    return made.body;
  };

  const names = async (query: string) => {
    const listed = await reader.get<Page<AssetSummary>>(`/assets?page=1&${query}`);
    expect(listed.status).toBe(200);
    return listed.body.data.map((asset) => asset.name).sort();
  };

  it('builds a tree, files assets and people in it, and lists by place with or without what is under it', async () => {
    const hq = await place({ name: 'HQ', address: '1 Main St, Berlin' });
    const floor = await place({ name: 'Floor 1', parent_id: hq.id });
    const room = await place({ name: 'Room 101', parent_id: floor.id, notes: 'Key at desk' });
    expect(room).toMatchObject({
      parent: { id: floor.id, name: 'Floor 1' },
      path: [
        { id: hq.id, name: 'HQ' },
        { id: floor.id, name: 'Floor 1' },
      ],
      depth: 2,
    });
    const projector = await tenant.post<AssetDetail>('/assets', {
      name: 'Projector',
      location_id: room.id,
    });
    expect(projector.status).toBe(201);
    expect(projector.body.location).toEqual({ id: room.id, name: 'Room 101' });
    // v1: a location by name is the one place called so.
    const byName = await tenant.post<AssetDetail>('/assets', { name: 'Screen', location: 'hq' });
    expect(byName.body.location).toEqual({ id: hq.id, name: 'HQ' });
    const person = await tenant.post<PersonDetail>('/people', {
      full_name: 'Ada',
      location_id: floor.id,
    });
    expect(person.body.location).toEqual({ id: floor.id, name: 'Floor 1' });

    expect(await names(`location_id=${hq.id}`)).toEqual(['Screen']);
    expect(await names(`location_id=${hq.id}&include_children=true`)).toEqual([
      'Projector',
      'Screen',
    ]);
    const people = await reader.get<Page<PersonDetail>>(`/people?page=1&location_id=${floor.id}`);
    expect(people.body.data.map((one) => one.full_name)).toEqual(['Ada']);

    const tree = await reader.get<Page<Location>>('/locations');
    expect(tree.status).toBe(200);
    expect(tree.body.data.map((one) => `${one.depth}:${one.name}`)).toEqual([
      '0:HQ',
      '1:Floor 1',
      '2:Room 101',
    ]);
    const fetched = await reader.get<Location>(`/locations/${hq.id}`);
    expect(fetched.body).toMatchObject({ children_count: 1, asset_count: 1, people_count: 0 });

    const bad = await reader.get<ErrorBody>(`/assets?page=1&include_children=yes`);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('include_children must be true or false');
  });

  it('refuses cycles, excess depth, a taken name and deleting what is not empty, naming the field', async () => {
    const site = await place({ name: 'Site' });
    const hall = await place({ name: 'Hall', parent_id: site.id });
    const cycle = await tenant.patch<ErrorBody>(`/locations/${site.id}`, { parent_id: hall.id });
    expect(cycle.status).toBe(400);
    expect(cycle.body.message).toContain('parent_id: Hall');
    const taken = await tenant.post<ErrorBody>('/locations', { name: 'HALL', parent_id: site.id });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toContain('name: a place called HALL is already in Site');
    const missing = await tenant.post<ErrorBody>('/locations', { name: 'X', parent_id: 'loc_x' });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toContain('parent_id: loc_x is not a location of this workspace');
    const blank = await tenant.post<ErrorBody>('/locations', { name: '  ' });
    expect(blank.status).toBe(400);
    expect(blank.body.message).toContain('name must not be blank');

    await tenant.post('/assets', { name: 'Forklift', location_id: hall.id });
    const full = await tenant.delete<ErrorBody>(`/locations/${site.id}`);
    expect(full.status).toBe(409);
    expect(full.body.message).toContain('holds 1 place');
    const fuller = await tenant.delete<ErrorBody>(`/locations/${hall.id}`);
    expect(fuller.body.message).toContain('holds 1 asset');

    const moved = await tenant.patch<Location>(`/locations/${hall.id}`, { parent_id: null });
    expect(moved.body).toMatchObject({ parent: null, depth: 0, path: [] });
    const deleted = await tenant.delete<Location>(`/locations/${site.id}`);
    expect(deleted.status).toBe(200);
    expect((await reader.get(`/locations/${site.id}`)).status).toBe(404);
  });

  it('keeps categories as records: rename shows everywhere, delete only when unused', async () => {
    const made = await tenant.post<Category>('/categories', { name: 'Cameras' });
    expect(made.status).toBe(201);
    const cam = await tenant.post<AssetDetail>('/assets', {
      name: 'EOS R5',
      category_id: made.body.id,
    });
    expect(cam.body.category).toEqual({ id: made.body.id, name: 'Cameras' });
    const renamed = await tenant.patch<Category>(`/categories/${made.body.id}`, {
      name: 'Cameras & lenses',
    });
    expect(renamed.body).toMatchObject({ name: 'Cameras & lenses', asset_count: 1 });
    const listed = await reader.get<Page<AssetSummary>>(
      `/assets?page=1&category_id=${made.body.id}`,
    );
    expect(listed.body.data.map((asset) => asset.category?.name)).toEqual(['Cameras & lenses']);
    const used = await tenant.delete<ErrorBody>(`/categories/${made.body.id}`);
    expect(used.status).toBe(409);
    expect(used.body.message).toContain('has 1 asset');
    const both = await tenant.patch<ErrorBody>(`/assets/${cam.body.id}`, {
      category: 'X',
      category_id: made.body.id,
    });
    expect(both.status).toBe(400);
    expect(both.body.message).toContain('category and category_id');
    const categories = await reader.get<Page<Category>>('/categories?search=lens');
    expect(categories.body.data.map((one) => one.name)).toEqual(['Cameras & lenses']);
  });

  it('keeps workspaces and scopes apart, and applies a create once per Idempotency-Key', async () => {
    const mine = await place({ name: 'Private store' });
    expect((await stranger.get(`/locations/${mine.id}`)).status).toBe(404);
    const theirs = await stranger.post<ErrorBody>('/assets', { name: 'X', location_id: mine.id });
    expect(theirs.status).toBe(400);
    expect(theirs.body.message).toContain('location_id:');
    expect((await reader.post('/locations', { name: 'Nope' })).status).toBe(403);
    expect((await reader.post('/categories', { name: 'Nope' })).status).toBe(403);

    const key = randomUUID();
    const send = () =>
      tenant.request<Location>('/locations', {
        method: 'POST',
        body: { name: 'Loading dock' },
        headers: { 'idempotency-key': key },
      });
    const first = await send();
    const again = await send();
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.body.id).toBe(first.body.id);
    const docks = await reader.get<Page<Location>>('/locations?search=loading');
    expect(docks.body.total).toBe(1);
  });

  it('in the console: every role sees places and categories, a manager changes them, a member may not', async () => {
    const manager = await consoleMember(tenant, 'manager', 'manager@places.example');
    const member = await consoleMember(tenant, 'member', 'member@places.example');
    const refused = await member.post<ErrorBody>('/console/api/locations', { name: 'Shed' });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toContain('add, rename, move or delete locations');
    const shed = await manager.post<Location>('/console/api/locations', { name: 'Shed' });
    expect(shed.status).toBe(201);
    const seen = await member.get<Page<Location>>('/console/api/locations?search=shed');
    expect(seen.body.data.map((one) => one.id)).toEqual([shed.body.id]);
    const category = await manager.post<Category>('/console/api/categories', { name: 'Ladders' });
    expect(category.status).toBe(201);
    expect((await member.get<Page<Category>>('/console/api/categories')).status).toBe(200);
    const activity = await manager.get<Page<{ record_type: string; record_name: string }>>(
      `/console/api/activity?record_type=location&record_id=${shed.body.id}`,
    );
    expect(activity.body.data.map((entry) => entry.record_name)).toEqual(['Shed']);
  });
});
