import type { Session, SessionListItem, SessionsEnded } from '@custodian/console-client';
import { client, rememberCsrfToken, send } from './client';

async function remember(pending: Promise<Session>): Promise<Session> {
  const session = await pending;
  rememberCsrfToken(session.csrf_token);
  return session;
}

export function getSession(): Promise<Session> {
  return remember(send('load your session', client.GET('/console/api/session')));
}

export function requestSignInLink(email: string): Promise<{ message: string }> {
  return send('send a sign-in link', client.POST('/console/api/sign-in/link', { body: { email } }));
}

export function redeemSignInToken(token: string): Promise<Session> {
  return remember(
    send('sign in with this link', client.POST('/console/api/sign-in/token', { body: { token } })),
  );
}

export function signInWithPassword(email: string, password: string): Promise<Session> {
  return remember(
    send(
      'sign in with a password',
      client.POST('/console/api/sign-in/password', { body: { email, password } }),
    ),
  );
}

export function acceptInvitation(token: string): Promise<Session> {
  return remember(
    send(
      'accept this invitation',
      client.POST('/console/api/invitations/accept', { body: { token } }),
    ),
  );
}

export function selectWorkspace(workspaceId: string): Promise<Session> {
  return remember(
    send(
      'open this workspace',
      client.POST('/console/api/session/workspace', { body: { workspace_id: workspaceId } }),
    ),
  );
}

export function signOut(): Promise<void> {
  return send('sign out', client.POST('/console/api/sign-out'));
}

export function setPassword(password: string, currentPassword: string): Promise<void> {
  const body = currentPassword ? { password, current_password: currentPassword } : { password };
  return send('set a password', client.PUT('/console/api/account/password', { body }));
}

export function listSessions(): Promise<SessionListItem[]> {
  return send('see your sessions', client.GET('/console/api/sessions'));
}

export function endSession(id: string): Promise<void> {
  return send(
    'sign a session out',
    client.DELETE('/console/api/sessions/{id}', { params: { path: { id } } }),
  );
}

export function endOtherSessions(): Promise<SessionsEnded> {
  return send('sign out everywhere else', client.POST('/console/api/sessions/sign-out-others'));
}
