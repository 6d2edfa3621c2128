import { ApiFailure, NETWORK_MESSAGE, describeFailure, failureFromAnswer } from './failure';

describe('failureFromAnswer', () => {
  it("keeps the API's message, which names the field", () => {
    const failure = failureFromAnswer('create API keys', 400, {
      statusCode: 400,
      error: 'Bad Request',
      message: 'name must be 1 to 200 characters',
    });
    expect(failure.message).toBe('name must be 1 to 200 characters');
    expect(failure.status).toBe(400);
  });

  it('says what failed when the answer has no message (a proxy page, an empty body)', () => {
    expect(failureFromAnswer('see API keys', 502, '<html>Bad gateway</html>').message).toBe(
      'Custodian could not see API keys (error 502). Try again in a moment.',
    );
    expect(failureFromAnswer('see API keys', 500, { message: '  ' }).message).toContain(
      'error 500',
    );
  });
});

const owner = { role: 'owner', permissions: ['keys.view', 'keys.manage'] as const };
const manager = { role: 'manager', permissions: ['keys.view'] as const };
const nobody = { role: null, permissions: [] };

describe('describeFailure', () => {
  it('names the role and the action on 403', () => {
    const failure = new ApiFailure('create API keys', 403, 'Forbidden', 'keys.manage');
    expect(describeFailure(failure, manager)).toBe('Your role (manager) cannot create API keys.');
    expect(describeFailure(failure, nobody)).toBe('You cannot create API keys.');
  });

  it("shows the API's message on a 403 to a role that has the permission", () => {
    const failure = failureFromAnswer(
      'create API keys',
      403,
      { message: 'x-csrf-token is missing or stale' },
      'keys.manage',
    );
    expect(describeFailure(failure, owner)).toBe('x-csrf-token is missing or stale');
  });

  it('says Custodian could not be reached when no answer came', () => {
    expect(describeFailure(new ApiFailure('see webhooks', null, 'fetch failed'), owner)).toBe(
      NETWORK_MESSAGE,
    );
  });

  it("shows the API's message otherwise, as for a wrong password", () => {
    const wrong = failureFromAnswer('sign in with a password', 401, {
      message: 'That e-mail and password do not match.',
    });
    expect(describeFailure(wrong, nobody)).toBe('That e-mail and password do not match.');
    expect(describeFailure(new ApiFailure('add endpoints', 400, 'url must be https'), owner)).toBe(
      'url must be https',
    );
  });

  it('asks to sign in again on a 401 without a message', () => {
    expect(describeFailure(failureFromAnswer('see webhooks', 401, ''), owner)).toBe(
      'You are signed out. Sign in again to continue.',
    );
  });

  it('describes an error that is not an API failure', () => {
    expect(describeFailure(new TypeError('x is undefined'), owner)).toBe(
      'Something went wrong in the console: x is undefined',
    );
  });
});
