package cluster

import "sync"

// session is one user's cluster: the simulation and the security
// configuration's upgrade state.
type session struct {
	cluster *simCluster

	mu      sync.Mutex // guards upgrade
	upgrade *upgradeState
}
