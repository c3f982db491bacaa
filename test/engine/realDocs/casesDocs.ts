/**
 * Questions over the real documents, typed the way people ask them, each with a phrase of the
 * document that answers it. A case is right when the first quoted passage contains the phrase.
 */
export interface DocCase {
  file: string;
  q: string;
  /** Text of the document that answers the question (compared without markup, spacing or case). */
  answer: string;
}

const FHS = 'fhs-3.0.pdf';
const SEMVER = 'semver-README.md';
const COPYRIGHT = 'copyright-format-1.0.txt';
const BINARY = 'binary-packages.docx';
const ARCHIVE = 'debian-archive.pptx';
const SCRIPTS = 'maintainer-scripts.docx';

export const DOC_CASES: readonly DocCase[] = [
  { file: FHS, q: 'where do config files specific to this machine go?', answer: 'Host-specific system configuration' },
  { file: FHS, q: 'what is /opt for', answer: 'Add-on application software packages' },
  { file: FHS, q: 'what should be in /srv?', answer: 'Data for services provided by this system' },
  { file: FHS, q: 'where are log files kept', answer: 'Log files and directories' },
  { file: FHS, q: 'is /var/tmp wiped on reboot?', answer: 'preserved between system reboots' },
  { file: FHS, q: 'can a program assume files in /tmp survive between runs', answer: 'Programs must not assume that any files or directories in /tmp are preserved' },
  { file: FHS, q: 'who is /usr/local meant for?', answer: 'for use by the system administrator when installing software locally' },
  { file: FHS, q: 'where do user mailboxes live', answer: 'User mailbox files' },
  { file: FHS, q: 'mount point for usb sticks and cdroms?', answer: 'Mount point for removable media' },
  { file: FHS, q: 'which commands are required in /bin', answer: 'Utility to concatenate files to standard output' },
  { file: FHS, q: 'what is /boot for', answer: 'Static files of the boot loader' },
  { file: FHS, q: 'root user home directory', answer: 'Home directory for the root user' },
  { file: FHS, q: 'where does application cache data go?', answer: 'Application cache data' },
  { file: FHS, q: 'what is /proc', answer: 'Kernel and process information virtual filesystem' },
  { file: FHS, q: 'where do I put architecture independent data like icons', answer: 'Architecture-independent data' },

  { file: SEMVER, q: 'what does ^1.2.3 match?', answer: '>=1.2.3 <2.0.0-0' },
  { file: SEMVER, q: 'tilde range ~1.2.3 means what', answer: '>=1.2.3 <1.3.0-0' },
  { file: SEMVER, q: 'how do hyphen ranges like 1.2.3 - 2.3.4 work?', answer: '>=1.2.3 <=2.3.4' },
  { file: SEMVER, q: 'how do I install it', answer: 'npm install semver' },
  { file: SEMVER, q: 'what does 1.2.x expand to', answer: '>=1.2.0 <1.3.0-0' },
  { file: SEMVER, q: 'how do I bump a version by a release type?', answer: 'Return the version incremented by the release type' },
  { file: SEMVER, q: 'which version of the semver spec is implemented', answer: 'SEMVER_SPEC_VERSION' },
  { file: SEMVER, q: 'how to check if a version satisfies a range', answer: 'Return true if the version satisfies the range' },
  { file: SEMVER, q: 'get the highest version in a list that matches a range', answer: 'Return the highest version in the list' },
  { file: SEMVER, q: 'what does the caret do for 0.2.3?', answer: '>=0.2.3 <0.3.0-0' },
  { file: SEMVER, q: 'how do I include prereleases when matching ranges', answer: 'includePrerelease' },

  { file: COPYRIGHT, q: 'which wildcards can I use in the Files field?', answer: 'Only the wildcards' },
  { file: COPYRIGHT, q: 'what goes in the Format field', answer: 'URI of the format specification' },
  { file: COPYRIGHT, q: 'how do I write GPL version 2 or any later version as a short name', answer: 'add a plus sign to the end of the short name' },
  { file: COPYRIGHT, q: 'is Upstream-Contact required in the header stanza?', answer: 'Upstream-Contact: optional' },
  { file: COPYRIGHT, q: 'how do I mark public domain code?', answer: 'public-domain does not refer to a set of license' },
  { file: COPYRIGHT, q: 'which short name covers the Apache license 2.0', answer: 'Apache license 1.0, 2.0' },

  { file: BINARY, q: 'how long can the one line synopsis be?', answer: 'certainly under 80 characters' },
  { file: BINARY, q: 'how should I name a package with offensive content', answer: 'adding -offensive' },
  { file: BINARY, q: 'what Maintainer should an orphaned package have?', answer: 'Debian QA Group' },
  { file: BINARY, q: 'can I reuse a version number after the epoch', answer: 'must not be reused for a version of the package with different contents' },
  { file: BINARY, q: 'how do I write dates in upstream version numbers so they sort', answer: 'four-digit year first' },
  { file: BINARY, q: 'which packages make up the base system', answer: 'priority required or important' },
  { file: BINARY, q: 'may a shared library package be tagged essential?', answer: 'A shared library package must not be tagged essential' },
  { file: BINARY, q: 'how may maintainer scripts prompt the user', answer: 'debconf' },
  { file: BINARY, q: 'team maintained package: who must be in Uploaders?', answer: 'at least one human with their personal email address' },

  { file: ARCHIVE, q: 'what are the debian free software guidelines', answer: 'Free Redistribution' },
  { file: ARCHIVE, q: 'how many packages does debian have', answer: 'well over 15000' },
  { file: ARCHIVE, q: 'what is the contrib area for?', answer: 'require software outside of the distribution' },
  { file: ARCHIVE, q: 'what priority should most packages have', answer: 'Most Debian packages will have a priority of optional' },
  { file: ARCHIVE, q: 'is the extra priority still used?', answer: 'This priority is deprecated' },
  { file: ARCHIVE, q: 'can a license forbid using the program in a business', answer: 'may not restrict the program from being used in a business' },
  { file: ARCHIVE, q: 'can two standard priority packages conflict', answer: 'must not conflict with each other' },

  { file: SCRIPTS, q: 'do maintainer scripts need to be idempotent?', answer: 'idempotent' },
  { file: SCRIPTS, q: 'what exit status should a maintainer script return on failure', answer: 'nonzero one for failure' },
  { file: SCRIPTS, q: 'can maintainer scripts count on a controlling terminal', answer: 'not guaranteed to run with a controlling terminal' },
  { file: SCRIPTS, q: 'how is postinst called to configure a package', answer: 'postinst configure most-recently-configured-version' },
];
