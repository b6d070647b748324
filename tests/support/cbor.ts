// The little CBOR (RFC 8949) the software authenticator writes: unsigned and negative integers,
// byte and text strings, arrays and maps, definite lengths, in the order given (what an
// authenticator emits for "none" attestation objects and COSE keys). Test code only, and on purpose
// not the implementation @simplewebauthn/server decodes with, so the two cannot share a mistake.
// The portal itself never encodes or decodes CBOR (decision 0039).
export type CborValue = number | string | Uint8Array | CborValue[] | Map<number | string, CborValue> | { [key: string]: CborValue };

function head(major: number, n: number): Buffer {
  if (n < 24) return Buffer.from([(major << 5) | n]);
  if (n < 0x100) return Buffer.from([(major << 5) | 24, n]);
  if (n < 0x10000) {
    const b = Buffer.alloc(3);
    b[0] = (major << 5) | 25;
    b.writeUInt16BE(n, 1);
    return b;
  }
  const b = Buffer.alloc(5);
  b[0] = (major << 5) | 26;
  b.writeUInt32BE(n, 1);
  return b;
}

export function cborEncode(v: CborValue): Buffer {
  if (typeof v === 'number') {
    if (!Number.isInteger(v) || Math.abs(v) > 0xffffffff) throw new Error(`cbor: unsupported number ${v}`);
    return v >= 0 ? head(0, v) : head(1, -1 - v);
  }
  if (typeof v === 'string') {
    const bytes = Buffer.from(v, 'utf8');
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (v instanceof Uint8Array) return Buffer.concat([head(2, v.length), Buffer.from(v)]);
  if (Array.isArray(v)) return Buffer.concat([head(4, v.length), ...v.map(cborEncode)]);
  const entries: [number | string, CborValue][] = v instanceof Map ? [...v] : Object.entries(v);
  return Buffer.concat([head(5, entries.length), ...entries.flatMap(([k, x]) => [cborEncode(k), cborEncode(x)])]);
}
