// Command certs writes the key material of a local Kubernetes API server into one folder: a CA, a serving
// certificate for the given addresses signed by it, the key pair that signs service-account tokens, and client
// certificates signed by the CA (--client name=CN/O, e.g. a kubelet's system:node:<node>/system:nodes).
// Existing files are kept, so a restarted stack keeps its tokens and kubeconfigs valid.
package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"flag"
	"log"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"
)

func main() {
	dir := flag.String("dir", "", "folder to write into (required)")
	ips := flag.String("ips", "127.0.0.1", "comma-separated IP addresses the serving certificate is valid for")
	var clients []string
	flag.Func("client", "a client certificate to write as <name>.crt and <name>.key: name=CN/O (repeatable)",
		func(v string) error { clients = append(clients, v); return nil })
	flag.Parse()
	if *dir == "" {
		log.Fatal("certs: --dir is required")
	}
	if err := os.MkdirAll(*dir, 0o700); err != nil {
		log.Fatalf("certs: %v", err)
	}
	path := func(name string) string { return filepath.Join(*dir, name) }
	if !(exists(path("ca.crt")) && exists(path("serving.crt")) && exists(path("sa.key"))) {
		writeServerKeys(path, *ips)
	}
	for _, client := range clients {
		writeClient(path, client)
	}
}

// writeClient signs a client certificate with the folder's CA unless <name>.crt exists already.
func writeClient(path func(string) string, spec string) {
	name, subject, ok := strings.Cut(spec, "=")
	cn, org, _ := strings.Cut(subject, "/")
	if !ok || name == "" || cn == "" {
		log.Fatalf("certs: --client %q: want name=CN/O", spec)
	}
	if exists(path(name + ".crt")) {
		return
	}
	ca, caKey := readCA(path)
	key := newKey()
	template := &x509.Certificate{
		SerialNumber: serial(),
		Subject:      pkix.Name{CommonName: cn},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().AddDate(10, 0, 0),
		KeyUsage:     x509.KeyUsageDigitalSignature | x509.KeyUsageKeyEncipherment,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	}
	if org != "" {
		template.Subject.Organization = []string{org}
	}
	write(path(name+".key"), "EC PRIVATE KEY", marshalEC(key))
	write(path(name+".crt"), "CERTIFICATE", mustCreate(template, ca, &key.PublicKey, caKey))
}

func readCA(path func(string) string) (*x509.Certificate, *ecdsa.PrivateKey) {
	certPEM, err := os.ReadFile(path("ca.crt"))
	if err != nil {
		log.Fatalf("certs: %v", err)
	}
	keyPEM, err := os.ReadFile(path("ca.key"))
	if err != nil {
		log.Fatalf("certs: %v", err)
	}
	certBlock, _ := pem.Decode(certPEM)
	keyBlock, _ := pem.Decode(keyPEM)
	if certBlock == nil || keyBlock == nil {
		log.Fatal("certs: ca.crt or ca.key holds no PEM block")
	}
	ca, err := x509.ParseCertificate(certBlock.Bytes)
	if err != nil {
		log.Fatalf("certs: %v", err)
	}
	key, err := x509.ParseECPrivateKey(keyBlock.Bytes)
	if err != nil {
		log.Fatalf("certs: %v", err)
	}
	return ca, key
}

func serial() *big.Int {
	n, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 62))
	if err != nil {
		log.Fatalf("certs: %v", err)
	}
	return n.Add(n, big.NewInt(3))
}

func writeServerKeys(path func(string) string, ips string) {

	caKey := newKey()
	caTemplate := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "argo-stack-ca"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().AddDate(10, 0, 0),
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	caDER := mustCreate(caTemplate, caTemplate, &caKey.PublicKey, caKey)
	ca, err := x509.ParseCertificate(caDER)
	if err != nil {
		log.Fatalf("certs: %v", err)
	}

	servingKey := newKey()
	serving := &x509.Certificate{
		SerialNumber: big.NewInt(2),
		Subject:      pkix.Name{CommonName: "kube-apiserver"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().AddDate(10, 0, 0),
		KeyUsage:     x509.KeyUsageDigitalSignature | x509.KeyUsageKeyEncipherment,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		DNSNames:     []string{"localhost", "kubernetes", "kubernetes.default", "kubernetes.default.svc"},
	}
	for _, ip := range strings.Split(ips, ",") {
		if parsed := net.ParseIP(strings.TrimSpace(ip)); parsed != nil {
			serving.IPAddresses = append(serving.IPAddresses, parsed)
		}
	}
	servingDER := mustCreate(serving, ca, &servingKey.PublicKey, caKey)

	saKey, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		log.Fatalf("certs: %v", err)
	}
	write(path("ca.crt"), "CERTIFICATE", caDER)
	write(path("ca.key"), "EC PRIVATE KEY", marshalEC(caKey))
	write(path("serving.crt"), "CERTIFICATE", servingDER)
	write(path("serving.key"), "EC PRIVATE KEY", marshalEC(servingKey))
	write(path("sa.key"), "RSA PRIVATE KEY", x509.MarshalPKCS1PrivateKey(saKey))
	pub, err := x509.MarshalPKIXPublicKey(&saKey.PublicKey)
	if err != nil {
		log.Fatalf("certs: %v", err)
	}
	write(path("sa.pub"), "PUBLIC KEY", pub)
}

func newKey() *ecdsa.PrivateKey {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		log.Fatalf("certs: %v", err)
	}
	return key
}

func marshalEC(key *ecdsa.PrivateKey) []byte {
	der, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		log.Fatalf("certs: %v", err)
	}
	return der
}

func mustCreate(template, parent *x509.Certificate, pub any, signer any) []byte {
	der, err := x509.CreateCertificate(rand.Reader, template, parent, pub, signer)
	if err != nil {
		log.Fatalf("certs: %v", err)
	}
	return der
}

func write(path, kind string, der []byte) {
	data := pem.EncodeToMemory(&pem.Block{Type: kind, Bytes: der})
	if err := os.WriteFile(path, data, 0o600); err != nil {
		log.Fatalf("certs: %v", err)
	}
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
