// Loaded (`node -r`) into every app process the end-to-end tests start, which talk to it over
// an IPC channel: when the test process that started the app is gone (a crashed or killed
// Jest worker), the channel closes and the app shuts down as on SIGTERM, instead of running on
// against queues and a database nobody will clean up.
process.on('disconnect', () => process.kill(process.pid, 'SIGTERM'));
// The channel alone must not keep the app alive.
process.channel?.unref();
