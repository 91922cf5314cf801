// CoreDNS for the real node's cluster DNS, with the plugins a cluster's kube-dns Corefile uses (as kubeadm
// writes it): the same coremain and plugins as the upstream binary, without the ~50 others it compiles in.
package main

import (
	"github.com/coredns/coredns/core/dnsserver"
	"github.com/coredns/coredns/coremain"

	_ "github.com/coredns/coredns/plugin/cache"
	_ "github.com/coredns/coredns/plugin/errors"
	_ "github.com/coredns/coredns/plugin/forward"
	_ "github.com/coredns/coredns/plugin/health"
	_ "github.com/coredns/coredns/plugin/kubernetes"
	_ "github.com/coredns/coredns/plugin/loadbalance"
	_ "github.com/coredns/coredns/plugin/log"
	_ "github.com/coredns/coredns/plugin/loop"
	_ "github.com/coredns/coredns/plugin/ready"
	_ "github.com/coredns/coredns/plugin/reload"
)

// The plugins compiled in, by the names a Corefile gives them.
var compiledIn = map[string]bool{
	"cache": true, "errors": true, "forward": true, "health": true, "kubernetes": true,
	"loadbalance": true, "log": true, "loop": true, "ready": true, "reload": true,
}

func init() {
	// The upstream order of the plugins (core/dnsserver/zdirectives.go), kept for those compiled in.
	var order []string
	for _, name := range dnsserver.Directives {
		if compiledIn[name] {
			order = append(order, name)
		}
	}
	dnsserver.Directives = order
}

func main() { coremain.Run() }
