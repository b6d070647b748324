// What the endpoint says about itself (RFC 7643 sections 5-7, RFC 7644 section 4): exactly what it
// supports, no more. Filters: `eq` on the attributes users.ts and groups.ts name, joined by `and` /
// `or` (at most MAX_FILTER_TERMS comparisons); PATCH yes (with and without `path`); sorting, ETags,
// bulk and password changes no; at most MAX_RESULTS resources per page. Decision 0040.

export const URN = {
  user: 'urn:ietf:params:scim:schemas:core:2.0:User',
  group: 'urn:ietf:params:scim:schemas:core:2.0:Group',
  enterprise: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User',
  /** The portal's facts about a membership (invitation pending, apps, administrator: read-only) and the name's reading. */
  portal: 'urn:ietf:params:scim:schemas:extension:portal:2.0:User',
  list: 'urn:ietf:params:scim:api:messages:2.0:ListResponse',
  patch: 'urn:ietf:params:scim:api:messages:2.0:PatchOp',
  schema: 'urn:ietf:params:scim:schemas:core:2.0:Schema',
  resourceType: 'urn:ietf:params:scim:schemas:core:2.0:ResourceType',
  config: 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig',
} as const;

/** Resources per page at most (Okta pages with count=100). */
export const MAX_RESULTS = 100;
/** Comparisons one filter may join with and/or. */
export const MAX_FILTER_TERMS = 50;
/** Members one PATCH or PUT of a group may name. */
export const MAX_MEMBERS_PER_REQUEST = 10_000;
/** Bytes of a request body (a group PUT with many members is the largest). */
export const SCIM_BODY_LIMIT = 1024 * 1024;

type Attr = Record<string, unknown>;

function attr(name: string, type: string, description: string, o: Partial<Attr> = {}): Attr {
  return { name, type, multiValued: false, description, required: false, caseExact: false, mutability: 'readWrite', returned: 'default', uniqueness: 'none', ...o };
}

const userAttributes: Attr[] = [
  attr('userName', 'string', "The person's email address: their sign-in name in the portal, unique in the tenant. Must be an email address.", { required: true, uniqueness: 'server' }),
  attr('name', 'complex', 'The parts of the name. The portal stores one name, written family name first for people whose language is Japanese.', {
    subAttributes: [
      attr('formatted', 'string', "The portal's name for the person. Used when no given or family name is sent."),
      attr('familyName', 'string', 'Family name.'),
      attr('givenName', 'string', 'Given name.'),
      attr('middleName', 'string', 'Middle name (English order only).'),
    ],
  }),
  attr('displayName', 'string', 'Shown as sent; the name when no name parts are sent.'),
  attr('preferredLanguage', 'string', 'ja or en (also read from locale): the language of a new account and of its name order. Read at creation only.', { mutability: 'writeOnly', returned: 'never' }),
  attr('emails', 'complex', 'Echoed as sent. The sign-in address is userName.', {
    multiValued: true,
    subAttributes: [attr('value', 'string', 'An address.'), attr('type', 'string', 'work, home or other.', { canonicalValues: ['work', 'home', 'other'] }), attr('primary', 'boolean', 'The primary address.')],
  }),
  attr('active', 'boolean', 'false deactivates the member and ends their sessions at once; true reactivates them (a seat of each app they hold is needed).'),
];

const enterpriseAttributes: Attr[] = [
  attr('department', 'string', "The member's main department, by name (made when it does not exist yet; empty: none)."),
  attr('employeeNumber', 'string', 'Echoed as sent.'),
];

const portalAttributes: Attr[] = [
  attr('invitationPending', 'boolean', 'The address belongs to an account of its own elsewhere: it joins this tenant only when the person accepts the invitation the portal mailed.', { mutability: 'readOnly' }),
  attr('apps', 'string', 'The apps the member may use.', { multiValued: true, mutability: 'readOnly' }),
  attr('isAdmin', 'boolean', 'An administrator of the tenant (set in the portal, never through SCIM).', { mutability: 'readOnly' }),
  attr('nameReading', 'string', 'The reading of the name (フリガナ), family name first, in katakana (hiragana and half-width kana are converted; anything else is refused). The users list sorts by it.'),
];

const groupAttributes: Attr[] = [
  attr('displayName', 'string', "The department's name, unique in the tenant.", { required: true, uniqueness: 'server' }),
  attr('members', 'complex', "The department's people: those whose main department it is and those who have it as an additional department.", {
    multiValued: true,
    subAttributes: [
      attr('value', 'string', 'The id of a User.', { mutability: 'immutable', caseExact: true }),
      attr('display', 'string', "The member's userName.", { mutability: 'readOnly' }),
      attr('$ref', 'reference', 'The User resource.', { mutability: 'immutable', referenceTypes: ['User'] }),
    ],
  }),
];

const schemas = [
  { id: URN.user, name: 'User', description: 'A member of the tenant', attributes: userAttributes },
  { id: URN.enterprise, name: 'EnterpriseUser', description: 'Enterprise User', attributes: enterpriseAttributes },
  { id: URN.portal, name: 'PortalMembership', description: "The portal's facts about a membership (read-only) and the name's reading", attributes: portalAttributes },
  { id: URN.group, name: 'Group', description: 'A department of the tenant', attributes: groupAttributes },
];

export function schemaDocs(base: string) {
  return schemas.map((s) => ({ schemas: [URN.schema], ...s, meta: { resourceType: 'Schema', location: `${base}/Schemas/${s.id}` } }));
}

export function resourceTypeDocs(base: string) {
  return [
    {
      schemas: [URN.resourceType],
      id: 'User',
      name: 'User',
      endpoint: '/Users',
      description: 'A member of the tenant',
      schema: URN.user,
      schemaExtensions: [
        { schema: URN.enterprise, required: false },
        { schema: URN.portal, required: false },
      ],
      meta: { resourceType: 'ResourceType', location: `${base}/ResourceTypes/User` },
    },
    {
      schemas: [URN.resourceType],
      id: 'Group',
      name: 'Group',
      endpoint: '/Groups',
      description: 'A department of the tenant',
      schema: URN.group,
      meta: { resourceType: 'ResourceType', location: `${base}/ResourceTypes/Group` },
    },
  ];
}

export function serviceProviderConfig(base: string, documentationUri: string | null) {
  return {
    schemas: [URN.config],
    ...(documentationUri ? { documentationUri } : {}),
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: MAX_RESULTS },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: false },
    authenticationSchemes: [
      {
        type: 'oauthbearertoken',
        name: 'Bearer token',
        description: "A token made on the tenant's Provisioning (SCIM) screen, sent as Authorization: Bearer <token>.",
        primary: true,
      },
    ],
    meta: { resourceType: 'ServiceProviderConfig', location: `${base}/ServiceProviderConfig` },
  };
}

/** A ListResponse (RFC 7644 section 3.4.2). */
export function listResponse(resources: unknown[], totalResults: number, startIndex: number) {
  return { schemas: [URN.list], totalResults, startIndex, itemsPerPage: resources.length, Resources: resources };
}
