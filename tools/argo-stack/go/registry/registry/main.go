// The CNCF distribution registry for the real node's image mirror: upstream's cmd/registry with the one
// storage driver it uses (filesystem), without the cloud drivers, auth and proxy modes it compiles in.
package main

import (
	"github.com/distribution/distribution/v3/registry"
	_ "github.com/distribution/distribution/v3/registry/storage/driver/filesystem"
)

func main() {
	// As upstream's main: its two commands exit non-zero themselves when they fail.
	_ = registry.RootCmd.Execute()
}
