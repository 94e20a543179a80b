import { readdir, readFile, readlink } from "node:fs/promises";

/** A TCP socket in LISTEN state, as the kernel's socket table shows it. */
export interface ListeningSocket {
  readonly address: string;
  readonly port: number;
}

/** /proc/net/tcp's state column for LISTEN. */
const LISTEN = "0A";

/** 0100007F → 127.0.0.1: the kernel prints the address as one 32-bit word in host (little-endian) order. */
function ipv4(hex: string): string {
  return [6, 4, 2, 0].map((at) => Number.parseInt(hex.slice(at, at + 2), 16)).join(".");
}

/** Four such words, each in host order, then written as eight 16-bit groups. */
function ipv6(hex: string): string {
  const bytes: number[] = [];
  for (let word = 0; word < 4; word += 1) {
    const chunk = hex.slice(word * 8, word * 8 + 8);
    for (const at of [6, 4, 2, 0]) bytes.push(Number.parseInt(chunk.slice(at, at + 2), 16));
  }
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push((((bytes[i] ?? 0) << 8) | (bytes[i + 1] ?? 0)).toString(16));
  return groups.join(":");
}

async function listeners(pid: number, table: "tcp" | "tcp6"): Promise<Map<string, ListeningSocket>> {
  const byInode = new Map<string, ListeningSocket>();
  const text = await readFile(`/proc/${pid}/net/${table}`, "utf8").catch(() => "");
  for (const line of text.split("\n").slice(1)) {
    const fields = line.trim().split(/\s+/);
    const [local, state, inode] = [fields[1], fields[3], fields[9]];
    if (local === undefined || state !== LISTEN || inode === undefined) continue;
    const [hex, port] = local.split(":");
    if (hex === undefined || port === undefined) continue;
    byInode.set(inode, {
      address: table === "tcp" ? ipv4(hex) : ipv6(hex),
      port: Number.parseInt(port, 16),
    });
  }
  return byInode;
}

/** Every TCP socket process `pid` listens on (Linux: its open sockets matched against its namespace's tables). */
export async function listeningSocketsOf(pid: number): Promise<ListeningSocket[]> {
  const inodes = new Set<string>();
  for (const fd of await readdir(`/proc/${pid}/fd`).catch(() => [] as string[])) {
    const target = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => "");
    const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
    if (inode !== undefined) inodes.add(inode);
  }
  const tables = [...(await listeners(pid, "tcp")), ...(await listeners(pid, "tcp6"))];
  return tables.filter(([inode]) => inodes.has(inode)).map(([, socket]) => socket);
}

/** 127.0.0.0/8, ::1, and IPv4 loopback mapped into IPv6. */
export function isLoopback(address: string): boolean {
  if (/^127\./.test(address)) return true;
  if (address === "0:0:0:0:0:0:0:1") return true;
  return /^0:0:0:0:0:ffff:7f[0-9a-f]{2}:/.test(address);
}
