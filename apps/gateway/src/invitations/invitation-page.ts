/**
 * The page the invitation link opens. It only shows an Accept button that POSTs to the same
 * URL: mail scanners fetch links, and a GET that accepted would spend a seat for them.
 */
export function invitationPage(token: string): string {
  const action = `/api/v1/invitations/accept?token=${encodeURIComponent(token)}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Custodian invitation</title>
<meta name="referrer" content="no-referrer"></head>
<body><h1>Join a Custodian workspace</h1>
<p>You have been invited to a Custodian workspace.</p>
<form method="post" action="${escapeHtml(action)}"><button type="submit">Accept the invitation</button></form>
</body></html>`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
