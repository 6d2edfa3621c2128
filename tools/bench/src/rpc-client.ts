import 'reflect-metadata';
import { RmqRpcClient } from '@custodian/messaging';
import { AmqpConnection } from '@golevelup/nestjs-rabbitmq';
import { Logger } from '@nestjs/common';
import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { RABBITMQ_URL } from './processes';
import { quantile } from './quantile';
import {
  RPC_ENV,
  processCpuMs,
  requiredEnv,
  type RpcRunResult,
  type RpcTransport,
} from './rpc-processes';
import { ASSET_REQUEST, RPC_PATTERN, RPC_TIMEOUT_MS } from './rpc-workload';

const IN_FLIGHT = Number(process.env.BENCH_CONNECTIONS ?? 32);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP_SECONDS = 2;

/** One transport's client, reduced to what the load needs. */
interface Caller {
  call(): Promise<unknown>;
  close(): Promise<void>;
}

async function messagingCaller(): Promise<Caller> {
  const client = new RmqRpcClient({
    url: RABBITMQ_URL,
    queue: requiredEnv(RPC_ENV.queue),
    timeoutMs: RPC_TIMEOUT_MS,
    connectionName: 'custodian-bench-rpc-client',
    serviceName: 'bench',
  });
  await client.connect();
  return { call: () => client.request(RPC_PATTERN, ASSET_REQUEST), close: () => client.close() };
}

/** AmqpConnection as RabbitMQModule would inject it into the gateway, without the module. */
async function golevelupCaller(): Promise<Caller> {
  const exchange = requiredEnv(RPC_ENV.exchange);
  const connection = new AmqpConnection({
    uri: RABBITMQ_URL,
    connectionManagerOptions: {
      connectionOptions: {
        noDelay: true,
        clientProperties: { connection_name: 'custodian-bench-rpc-client-golevelup' },
      },
    },
    defaultRpcTimeout: RPC_TIMEOUT_MS,
  });
  await connection.init();
  return {
    // The same TTL as libs/messaging's: a request nobody took in time is dropped.
    call: () =>
      connection.request({
        exchange,
        routingKey: RPC_PATTERN,
        payload: ASSET_REQUEST,
        timeout: RPC_TIMEOUT_MS,
        expiration: RPC_TIMEOUT_MS,
      }),
    close: () => connection.close(),
  };
}

/**
 * Keeps IN_FLIGHT requests outstanding (each loop sends its next request when the last one
 * is answered) for a warm-up and then SECONDS measured; the server's CPU time comes from /proc.
 */
async function main(): Promise<void> {
  Logger.overrideLogger(['warn', 'error']);
  const transport = requiredEnv(RPC_ENV.transport) as RpcTransport;
  const serverPid = Number(requiredEnv(RPC_ENV.serverPid));
  const caller = transport === 'golevelup' ? await golevelupCaller() : await messagingCaller();

  const latencies: number[] = [];
  let errors = 0;
  let measuring = false;
  let running = true;
  const loop = async () => {
    while (running) {
      const started = performance.now();
      try {
        await caller.call();
        if (measuring) latencies.push(performance.now() - started);
      } catch {
        if (measuring) errors++;
      }
    }
  };
  const loops = Array.from({ length: IN_FLIGHT }, loop);

  await new Promise((resolve) => setTimeout(resolve, WARMUP_SECONDS * 1000));
  measuring = true;
  const serverCpuBefore = processCpuMs(serverPid);
  const clientCpuBefore = process.cpuUsage();
  const started = performance.now();
  await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000));
  measuring = false;
  const seconds = (performance.now() - started) / 1000;
  const serverCpuMs = processCpuMs(serverPid) - serverCpuBefore;
  const clientCpu = process.cpuUsage(clientCpuBefore);
  running = false;
  await Promise.all(loops);
  await caller.close();

  latencies.sort((a, b) => a - b);
  const result: RpcRunResult = {
    requests: latencies.length,
    seconds,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    errors,
    serverCpuMs,
    clientCpuMs: (clientCpu.user + clientCpu.system) / 1000,
  };
  writeFileSync(requiredEnv(RPC_ENV.resultFile), JSON.stringify(result));
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
