// Whether the island runs in the browser yet. The server's markup (and the first render in the
// browser, which must match it) is the form that works without JavaScript: a button the
// island would disable until the input is valid stays enabled there, and the server checks the
// posted form instead (decision 0029).
import { useEffect, useState } from 'react';

export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
