/**
 * Paths a request may name besides the interface's own spellings
 * (arbitraries/spellings.ts): the same resources under another version or
 * none (OWASP API9:2023, improper inventory: an old or unversioned copy of
 * the API left without its checks), and the administrative routes a
 * framework or a stand-in often keeps next to an API. One line a path; each
 * is relative to the origin, built from the base path's prefix (what comes
 * before its version segment).
 */
export interface TargetEntry {
  /** `prefix` is the base path without its version segment (`` for `/v1`, `/api` for `/api/v1`); `pet` an existing pet's id. */
  readonly path: (prefix: string, pet: string) => string;
  readonly why: string;
}

export const OTHER_TARGETS: readonly TargetEntry[] = [
  { path: (prefix) => `${prefix}/pets`, why: 'the collection without a version prefix' },
  { path: (prefix, pet) => `${prefix}/pets/${pet}`, why: 'a pet without a version prefix' },
  { path: (prefix) => `${prefix}/v0/pets`, why: 'an older version' },
  { path: (prefix, pet) => `${prefix}/v2/pets/${pet}`, why: 'a newer version' },
  { path: (prefix) => `${prefix}/V1/pets`, why: 'the version prefix in upper case' },
  { path: (prefix) => `${prefix}/v1.0/pets`, why: 'the full version number' },
  { path: (prefix) => `${prefix}/api/pets`, why: 'a generic API mount' },
  { path: (prefix, pet) => `${prefix}/v1/pets/${pet}/delete`, why: 'a delete action as a path' },
  { path: () => '/__control/reset', why: "a stand-in's control API (this project's own)" },
  { path: () => '/reset', why: 'a reset route left from development' },
  { path: () => '/admin', why: 'an administrative route' },
  { path: () => '/debug', why: 'a debugging route' },
];
