/** @jest-environment jsdom */
import { useQuery } from '@tanstack/react-query';
import { act, screen } from '@testing-library/react';
import { getSession } from '../api/session.api';
import { renderScreen, sessionFor } from '../testing/render-screen';
import { useSession } from './session';

jest.mock('../api/session.api');

const GLOBEX = { id: 'wsp_globex', name: 'Globex' };

/** A screen reading one list under the same key in every workspace, as the console's do. */
function Probe({ read }: { read: () => Promise<string> }) {
  const { session, replace } = useSession();
  const list = useQuery({ queryKey: ['keys', 'list'], queryFn: read });
  return (
    <>
      <p>In {session.workspace?.name}</p>
      <p>{list.data ?? 'Loading…'}</p>
      <button type="button" onClick={() => replace(sessionFor('owner', GLOBEX))}>
        Switch
      </button>
    </>
  );
}

describe('SessionProvider', () => {
  it('drops what was read in one workspace when another is picked: none of it shows', async () => {
    jest.mocked(getSession).mockResolvedValue(sessionFor('owner'));
    let answer: (text: string) => void = () => undefined;
    const read = jest
      .fn<Promise<string>, []>()
      .mockResolvedValueOnce('Acme keys')
      .mockImplementationOnce(() => new Promise((resolve) => (answer = resolve)));
    const { queryClient } = renderScreen(<Probe read={read} />);
    await screen.findByText('Acme keys');

    act(() => screen.getByRole('button', { name: 'Switch' }).click());

    // The first screen of Globex, before its answer: no Acme data, not even in the cache.
    expect(await screen.findByText('In Globex')).toBeTruthy();
    expect(screen.queryByText('Acme keys')).toBeNull();
    expect(screen.getByText('Loading…')).toBeTruthy();
    expect(queryClient.getQueryData(['keys', 'list'])).toBeUndefined();
    act(() => answer('Globex keys'));
    expect(await screen.findByText('Globex keys')).toBeTruthy();
    expect(read).toHaveBeenCalledTimes(2);
  });
});
