import type { Session } from '@custodian/console-client';
import { type KeyboardEvent, type ReactNode, useId, useRef, useState } from 'react';
import { NavLink } from 'react-router';
import { OVERVIEW, navSections } from './navigation';

/**
 * The main navigation, by section. Beside the page on a wide window; on a narrow one (under
 * 720px, styles.css) folded behind the Menu button, which opens and closes it, as Escape and
 * following a link close it. NavLink marks the current screen with aria-current="page".
 */
export function Sidebar({ session }: { session: Session }) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const navId = useId();
  const close = () => setOpen(false);

  function onKeyDown(event: KeyboardEvent) {
    if (event.key !== 'Escape' || !open) return;
    close();
    button.current?.focus();
  }

  return (
    <div className={open ? 'sidebar sidebar-open' : 'sidebar'} onKeyDown={onKeyDown}>
      <button
        ref={button}
        type="button"
        className="menu-button"
        aria-expanded={open}
        aria-controls={navId}
        onClick={() => setOpen(!open)}
      >
        <span className="menu-icon" aria-hidden="true" />
        Menu
      </button>
      <nav id={navId} className="sidebar-nav" aria-label="Main">
        <ul className="nav-list">
          <li>
            <NavLink to={OVERVIEW.to} end onClick={close}>
              {OVERVIEW.label}
            </NavLink>
          </li>
        </ul>
        {navSections(session).map((section) => (
          <Section key={section.heading} heading={section.heading}>
            {section.items.map((item) => (
              <li key={item.to}>
                <NavLink to={item.to} onClick={close}>
                  {item.label}
                </NavLink>
              </li>
            ))}
          </Section>
        ))}
      </nav>
    </div>
  );
}

/** A heading and its links; the list is named by the heading (not a landmark of its own). */
function Section({ heading, children }: { heading: string; children: ReactNode }) {
  const headingId = useId();
  return (
    <div className="nav-section">
      <h2 id={headingId} className="nav-heading">
        {heading}
      </h2>
      <ul className="nav-list" aria-labelledby={headingId}>
        {children}
      </ul>
    </div>
  );
}
