// Package testenv holds, in its sub-packages, the real programs tests start beside Loupe:
// PostgreSQL (pgtest) and nginx (nginxtest). They are outside server/internal so that the
// browser tests in e2e/ can start them too. make deps installs both when missing; a test
// that needs one fails saying so, never skips.
package testenv
