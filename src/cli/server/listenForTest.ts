import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Starts a server on a free loopback port for a test: its base URL and a close that drops open connections. */
export async function listenForTest(server: Server): Promise<{ base: string; port: number; close: () => void }> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  return {
    base: `http://127.0.0.1:${port}`,
    port,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}
