/** @jest-environment jsdom */
import type { ConsoleKey } from '@custodian/console-client';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ApiFailure } from '../api/failure';
import { listKeys, revokeKey } from '../api/keys.api';
import { getSession } from '../api/session.api';
import { installDialogMethods, renderScreen, sessionFor } from '../testing/render-screen';
import { KeysPage } from './keys.page';

jest.mock('../api/keys.api');
jest.mock('../api/session.api');

const deployBot: ConsoleKey = {
  id: 'key_1',
  name: 'Deploy bot',
  prefix: 'cus_Ab12',
  scope: 'write',
  created_at: '2026-01-05T10:00:00.000Z',
  created_by: 'ada@example.com',
  last_used_at: null,
  revoked_at: null,
};

beforeAll(installDialogMethods);

beforeEach(() => {
  jest.resetAllMocks();
  jest.mocked(getSession).mockResolvedValue(sessionFor('owner'));
});

describe('KeysPage', () => {
  it('lists the keys its query read', async () => {
    jest.mocked(listKeys).mockResolvedValue([deployBot]);
    renderScreen(<KeysPage />, '/keys');

    expect(await screen.findByText('Loading API keys…')).toBeTruthy();
    const row = await screen.findByRole('row', { name: /Deploy bot/ });
    expect(within(row).getAllByRole('cell')[1]?.textContent).toBe('cus_Ab12…');
    expect(within(row).getByText('Active')).toBeTruthy();
    expect(screen.queryByText('No keys yet.')).toBeNull();
  });

  it('says when there is no key', async () => {
    jest.mocked(listKeys).mockResolvedValue([]);
    renderScreen(<KeysPage />, '/keys');

    expect(await screen.findByText('No keys yet.')).toBeTruthy();
  });

  it("shows the API's refusal as the error notice, and asks once: a 4xx is not retried", async () => {
    jest.mocked(getSession).mockResolvedValue(sessionFor('member'));
    jest
      .mocked(listKeys)
      .mockRejectedValue(new ApiFailure('see API keys', 403, 'Forbidden', 'keys.view'));
    renderScreen(<KeysPage />, '/keys');

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Your role (member) cannot see API keys.');
    expect(screen.queryByRole('table')).toBeNull();
    expect(listKeys).toHaveBeenCalledTimes(1);
  });

  it('revokes a key, and the list read again shows it revoked', async () => {
    const revoked = { ...deployBot, revoked_at: '2026-01-06T09:00:00.000Z' };
    jest.mocked(listKeys).mockResolvedValueOnce([deployBot]).mockResolvedValueOnce([revoked]);
    jest.mocked(revokeKey).mockResolvedValue(revoked);
    renderScreen(<KeysPage />, '/keys');

    const row = await screen.findByRole('row', { name: /Deploy bot/ });
    fireEvent.click(within(row).getByRole('button', { name: 'Revoke key Deploy bot' }));
    const dialog = screen.getByRole('dialog', { name: 'Revoke this key?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Revoke key' }));

    await screen.findByText(/is revoked: requests with it are refused from now on/);
    expect(revokeKey).toHaveBeenCalledWith('key_1');
    // The key's row comes from the list read again after the revocation invalidated it.
    expect(listKeys).toHaveBeenCalledTimes(2);
    await waitFor(() =>
      expect(
        within(screen.getByRole('row', { name: /Deploy bot/ })).getByText('Revoked'),
      ).toBeTruthy(),
    );
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
