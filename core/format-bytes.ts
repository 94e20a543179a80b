/** "1 MiB", "64 KiB", "100 bytes": a cap as the messages say it. */
export function formatBytes(bytes: number): string {
  const KIB = 1024;
  const MIB = 1024 * KIB;
  if (bytes % MIB === 0) return `${bytes / MIB} MiB`;
  if (bytes % KIB === 0) return `${bytes / KIB} KiB`;
  return `${bytes} bytes`;
}
