/** @jest-environment jsdom */
import type { Maintenance } from '@custodian/console-client';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  createMaintenance,
  listAssetMaintenance,
  resolveMaintenance,
} from '../api/maintenance.api';
import { getSession } from '../api/session.api';
import { renderScreen, sessionFor } from '../testing/render-screen';
import { MaintenanceSection } from './maintenance-section';

jest.mock('../api/maintenance.api');
jest.mock('../api/session.api');

const open: Maintenance = {
  id: 'mnt_1',
  asset: { id: 'ast_1', name: 'Laptop', asset_tag: 'AT-1' },
  title: 'Battery',
  type: 'repair',
  notes: null,
  scheduled_for: '2026-12-02',
  cost: '189.00',
  status: 'open',
  asset_status_before: 'active',
  resolution_notes: null,
  created_at: '2026-11-28T10:00:00.000Z',
  updated_at: '2026-11-28T10:00:00.000Z',
  resolved_at: null,
  reminder_id: null,
};
const page = (data: Maintenance[]) => ({ data, page: 1, pageSize: 20, total: data.length });

beforeEach(() => {
  jest.resetAllMocks();
  jest.mocked(getSession).mockResolvedValue(sessionFor('manager'));
});

describe('MaintenanceSection', () => {
  it('logs a record with "put the asset in maintenance", and the list is read again', async () => {
    jest.mocked(listAssetMaintenance).mockResolvedValue(page([]));
    jest.mocked(createMaintenance).mockResolvedValue(open);
    renderScreen(<MaintenanceSection assetId="ast_1" manage />);

    expect(await screen.findByText('No maintenance logged.')).toBeTruthy();
    const form = screen.getByRole('form', { name: 'Log maintenance' });
    fireEvent.change(within(form).getByLabelText('Title'), { target: { value: ' Battery ' } });
    fireEvent.change(within(form).getByLabelText('Cost'), { target: { value: '189' } });
    fireEvent.click(within(form).getByLabelText(/Put the asset in maintenance/));
    fireEvent.click(within(form).getByRole('button', { name: 'Log maintenance' }));

    await waitFor(() =>
      expect(createMaintenance).toHaveBeenCalledWith('ast_1', {
        title: 'Battery',
        type: 'repair',
        cost: '189',
        set_asset_status: true,
      }),
    );
    await waitFor(() => expect(listAssetMaintenance).toHaveBeenCalledTimes(2));
  });

  it('refuses a cost the API would not take, without sending it', async () => {
    jest.mocked(listAssetMaintenance).mockResolvedValue(page([]));
    renderScreen(<MaintenanceSection assetId="ast_1" manage />);

    const form = await screen.findByRole('form', { name: 'Log maintenance' });
    fireEvent.change(within(form).getByLabelText('Title'), { target: { value: 'Battery' } });
    fireEvent.change(within(form).getByLabelText('Cost'), { target: { value: '1.234' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Log maintenance' }));

    expect((await screen.findByRole('alert')).textContent).toMatch(/^Cost:/);
    expect(createMaintenance).not.toHaveBeenCalled();
  });

  it('resolves an open record with what was done and the final cost', async () => {
    jest.mocked(listAssetMaintenance).mockResolvedValue(page([open]));
    jest.mocked(resolveMaintenance).mockResolvedValue({ ...open, status: 'resolved' });
    renderScreen(<MaintenanceSection assetId="ast_1" manage />);

    fireEvent.click(await screen.findByRole('button', { name: 'Resolve Battery' }));
    const form = screen.getByRole('form', { name: 'Resolve Battery' });
    expect(within(form).getByText('The asset goes back to active.')).toBeTruthy();
    fireEvent.change(within(form).getByLabelText('What was done'), {
      target: { value: 'Replaced' },
    });
    fireEvent.change(within(form).getByLabelText('Final cost'), { target: { value: '210.50' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Resolve' }));

    await waitFor(() =>
      expect(resolveMaintenance).toHaveBeenCalledWith('mnt_1', {
        notes: 'Replaced',
        cost: '210.50',
      }),
    );
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Resolve Battery' })).toBeNull());
  });

  it('shows a member the records without the forms', async () => {
    jest.mocked(getSession).mockResolvedValue(sessionFor('member'));
    jest.mocked(listAssetMaintenance).mockResolvedValue(page([open]));
    renderScreen(<MaintenanceSection assetId="ast_1" manage={false} />);

    expect(await screen.findByRole('row', { name: /Battery/ })).toBeTruthy();
    expect(screen.queryByRole('form', { name: 'Log maintenance' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Resolve Battery' })).toBeNull();
  });
});
