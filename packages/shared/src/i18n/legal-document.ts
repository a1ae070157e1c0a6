// The shape of a legal document's namespace (terms, privacy, eula, rgpd): rendered by the web app's
// LegalPage component and checked by the legal content tests.

export interface LegalSection {
  heading: string;
  paragraphs?: string[];
  items?: string[];
  after?: string[];
}

export interface LegalDocument {
  meta: { title: string; description: string };
  title: string;
  updated: string;
  intro?: string[];
  sections: LegalSection[];
}
