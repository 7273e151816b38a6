/**
 * The ceiling of the emulator bench: a bare fastify app serving the same
 * JSON at the same path, no hooks, no token check. Reads the JSON from the
 * file given as its argument; prints `listening <url>` on stdout.
 */
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';

const body = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as unknown;
const app = Fastify({ logger: false });
app.get('/api/v2/client-grants/:id', async () => body);
await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`listening http://127.0.0.1:${(app.server.address() as AddressInfo).port}\n`);
const stop = () => void app.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
