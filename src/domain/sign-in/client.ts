// Who is signing in, from where: the client's address, agent and location as the request gave
// them, and the fingerprints of its browser and network that the new-device rule and the
// lock-outs' own buckets compare with known_devices. Below every way in, so each can name them.
import type { Geo } from '../../deps';
import { networkOf } from '../security/network';
import { sha256Hex } from '../security/tokens';

export interface ClientInfo {
  ip: string | null;
  userAgent: string | null;
  geo: Geo | null;
}

export interface Fingerprints {
  device: string;
  network: string | null;
}

export function deviceFingerprints(deviceToken: string, ip: string | null): Fingerprints {
  const net = networkOf(ip);
  return { device: `d:${sha256Hex(deviceToken)}`, network: net ? `n:${net}` : null };
}
