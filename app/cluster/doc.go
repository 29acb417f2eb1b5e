// Package cluster is the cluster API's own view: the shard picture with its fault controls,
// and the security configuration's upgrade flow, registered with app/op as the side panel of
// the cluster's operations. It may import the pure packages and the shared ones (app/ui,
// app/op, app/chatstream), never another feature or the shell.
package cluster
