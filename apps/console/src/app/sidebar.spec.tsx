/** @jest-environment jsdom */
import { fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { sessionFor } from '../testing/render-screen';
import { Sidebar } from './sidebar';

function Where() {
  return <p data-testid="where">{useLocation().pathname}</p>;
}

function renderSidebar(path: string, role: Parameters<typeof sessionFor>[0] = 'owner') {
  render(
    <MemoryRouter initialEntries={[path]}>
      <Sidebar session={sessionFor(role)} />
      <Routes>
        <Route path="*" element={<Where />} />
      </Routes>
    </MemoryRouter>,
  );
  return {
    nav: screen.getByRole('navigation', { name: 'Main' }),
    menu: screen.getByRole('button', { name: 'Menu' }),
  };
}

describe('Sidebar', () => {
  it('groups the screens the role opens under headings, the current one marked', () => {
    const { nav } = renderSidebar('/assets/ast_1', 'member');

    const headings = within(nav).getAllByRole('heading');
    expect(headings.map((heading) => heading.textContent)).toEqual(['Register', 'Workspace']);
    expect(within(nav).getByRole('list', { name: 'Register' })).toHaveProperty(
      'textContent',
      'AssetsPeopleLocationsCategoriesRequestsBookingsCalendarLicencesMaintenanceRemindersAuditsScan',
    );
    // A member sees no integrations: no heading over nothing, no link to a refusal.
    expect(within(nav).queryByRole('link', { name: 'API keys' })).toBeNull();
    expect(
      within(nav)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual([
      'Overview',
      'Assets',
      'People',
      'Locations',
      'Categories',
      'Requests',
      'Bookings',
      'Calendar',
      'Licences',
      'Maintenance',
      'Reminders',
      'Audits',
      'Scan',
      'Members',
      'Activity',
      'Plan & usage',
      'Workspaces',
      'Account',
    ]);
    // An asset's page is under Assets; the overview's link matches only "/" itself.
    const current = within(nav)
      .getAllByRole('link')
      .filter((link) => link.getAttribute('aria-current') === 'page');
    expect(current.map((link) => link.textContent)).toEqual(['Assets']);
  });

  it('opens and closes behind the Menu button: aria-expanded, Escape, following a link', () => {
    const { nav, menu } = renderSidebar('/');
    const sidebar = nav.parentElement;
    expect(menu.getAttribute('aria-controls')).toBe(nav.id);
    expect(menu.getAttribute('aria-expanded')).toBe('false');
    expect(sidebar?.classList.contains('sidebar-open')).toBe(false);

    fireEvent.click(menu);
    expect(menu.getAttribute('aria-expanded')).toBe('true');
    expect(sidebar?.classList.contains('sidebar-open')).toBe(true);

    // Escape from inside the menu closes it and gives the focus back to the button.
    const keys = within(nav).getByRole('link', { name: 'API keys' });
    keys.focus();
    fireEvent.keyDown(keys, { key: 'Escape' });
    expect(menu.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(menu);

    fireEvent.click(menu);
    fireEvent.click(within(nav).getByRole('link', { name: 'Delivery log' }));
    expect(screen.getByTestId('where').textContent).toBe('/deliveries');
    expect(menu.getAttribute('aria-expanded')).toBe('false');
    expect(
      within(nav).getByRole('link', { name: 'Delivery log' }).getAttribute('aria-current'),
    ).toBe('page');
  });
});
