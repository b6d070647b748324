// scim-patch applied to a resource as a GET answers it (decision 0040). One typed door to the
// library: its own resource type names `schemas` and `meta`, which every resource here carries.
import { scimPatch, type ScimPatchOperation, type ScimResource as PatchResource } from 'scim-patch';

export type Resource = Record<string, unknown>;

/** The resource with `operations` applied (a new object; the given one is untouched). */
export function applyPatch(resource: Resource, operations: ScimPatchOperation[]): Resource {
  const doc = resource as Resource & PatchResource;
  return scimPatch(doc, operations, { mutateDocument: false, treatMissingAsAdd: true });
}
