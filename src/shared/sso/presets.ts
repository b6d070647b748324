// The IdPs our customers use, each with a step-by-step guide (locales ssoGuide.<id>.*), shown
// beside the SSO form when picked. Shared by the screen's island and the guide call.
export const IDP_PRESETS = ['entra', 'okta', 'google', 'hennge', 'onelogin', 'keycloak'] as const;
export type IdpPreset = (typeof IDP_PRESETS)[number];

export function isIdpPreset(v: string): v is IdpPreset {
  return (IDP_PRESETS as readonly string[]).includes(v);
}

/** A guide in the request's language: the steps, then what to send and how to test. */
export interface IdpGuide {
  preset: IdpPreset;
  name: string;
  steps: string[];
  nameId: string;
  attributes: string;
  test: string;
}
