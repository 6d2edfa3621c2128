/**
 * Transport ids of the register's two RPC servers. A handler declared with
 * `@Handles(contract, REGISTER_ADMIN_TRANSPORT)` is served on the admin queue only. Without
 * ids Nest would serve admin patterns on the API queue too.
 */
export const REGISTER_RPC_TRANSPORT = Symbol('register-rpc');
export const REGISTER_ADMIN_TRANSPORT = Symbol('register-admin');
