#define _GNU_SOURCE
#include "CSystem.h"

#include <malloc.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/rand.h>
#include <openssl/bn.h>
#include <openssl/x509v3.h>
#include <openssl/rsa.h>

const uint32_t CSYS_EPOLLIN = EPOLLIN;
const uint32_t CSYS_EPOLLOUT = EPOLLOUT;
const uint32_t CSYS_EPOLLERR = EPOLLERR;
const uint32_t CSYS_EPOLLHUP = EPOLLHUP;
const uint32_t CSYS_EPOLLRDHUP = EPOLLRDHUP;

int csys_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

int csys_epoll_add(int epfd, int fd, uint64_t token) {
    struct epoll_event event;
    memset(&event, 0, sizeof event);
    event.events = EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLET;
    event.data.u64 = token;
    return epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &event);
}

int csys_epoll_del(int epfd, int fd) {
    struct epoll_event event;
    memset(&event, 0, sizeof event);
    return epoll_ctl(epfd, EPOLL_CTL_DEL, fd, &event);
}

int csys_epoll_wait(int epfd, uint64_t *tokens, uint32_t *masks, int max, int timeout_ms) {
    struct epoll_event events[256];
    if (max > 256) max = 256;
    int n = epoll_wait(epfd, events, max, timeout_ms);
    for (int i = 0; i < n; i++) {
        tokens[i] = events[i].data.u64;
        masks[i] = events[i].events;
    }
    return n;
}

int csys_eventfd(void) { return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC); }

int csys_accept(int fd, void *address, unsigned int *length) {
    return accept4(fd, (struct sockaddr *)address, (socklen_t *)length, SOCK_CLOEXEC | SOCK_NONBLOCK);
}

long csys_SSL_CTX_set_min_tls12(SSL_CTX *ctx) { return SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION); }

long csys_SSL_set_sni(SSL *ssl, const char *name) { return SSL_set_tlsext_host_name(ssl, name); }

long csys_SSL_CTX_set_modes(SSL_CTX *ctx) { return SSL_CTX_set_mode(ctx, SSL_MODE_RELEASE_BUFFERS); }

long csys_SSL_CTX_set_groups(SSL_CTX *ctx, const char *groups) { return SSL_CTX_set1_groups_list(ctx, groups); }

int csys_ssl_attach_memory_bios(SSL *ssl, BIO **rbio, BIO **wbio) {
    BIO *in = BIO_new(BIO_s_mem());
    BIO *out = BIO_new(BIO_s_mem());
    if (in == NULL || out == NULL) {
        BIO_free(in);
        BIO_free(out);
        return 0;
    }
    BIO_set_mem_eof_return(in, -1);
    BIO_set_mem_eof_return(out, -1);
    SSL_set_bio(ssl, in, out);
    *rbio = in;
    *wbio = out;
    return 1;
}

void csys_ssl_error_string(char *buffer, size_t length) {
    unsigned long code = ERR_get_error();
    if (code == 0) {
        if (length > 0) buffer[0] = 0;
    } else {
        ERR_error_string_n(code, buffer, length);
    }
    ERR_clear_error();
}

int csys_peer_certificate_sha256(SSL *ssl, unsigned char *out) {
    X509 *cert = SSL_get1_peer_certificate(ssl);
    if (cert == NULL) return 0;
    unsigned int length = 0;
    int ok = X509_digest(cert, EVP_sha256(), out, &length);
    X509_free(cert);
    return ok && length == 32;
}

// OpenSSL frees its global locks in an atexit handler; a TLS connection the event loop's thread
// still closes while the main thread exits then locks a freed lock (SIGSEGV in
// pthread_rwlock_wrlock). Without the handler the process's memory simply goes with it.
__attribute__((constructor)) static void csys_openssl_without_atexit(void) {
    OPENSSL_init_crypto(OPENSSL_INIT_NO_ATEXIT, NULL);
}

int csys_peer_subject_entry(SSL *ssl, int nid, char *out, size_t length) {
    X509 *cert = SSL_get1_peer_certificate(ssl);
    if (cert == NULL) return -1;
    int result = -1;
    X509_NAME *subject = X509_get_subject_name(cert);
    int index = subject == NULL ? -1 : X509_NAME_get_index_by_NID(subject, nid, -1);
    if (index >= 0) {
        unsigned char *text = NULL;
        int count = ASN1_STRING_to_UTF8(&text, X509_NAME_ENTRY_get_data(X509_NAME_get_entry(subject, index)));
        if (count >= 0 && (size_t)count < length) {
            memcpy(out, text, (size_t)count);
            out[count] = 0;
            result = count;
        }
        OPENSSL_free(text);
    }
    X509_free(cert);
    return result;
}

static char *bio_to_string(BIO *bio) {
    char *data = NULL;
    long length = BIO_get_mem_data(bio, &data);
    char *copy = malloc((size_t)length + 1);
    if (copy == NULL) return NULL;
    memcpy(copy, data, (size_t)length);
    copy[length] = 0;
    return copy;
}

int csys_self_signed_certificate(const char *common_name, const char *subject_alt_names, int rsa_bits,
                                 char **cert_pem, char **key_pem) {
    int ok = 0;
    EVP_PKEY *key = rsa_bits > 0 ? EVP_RSA_gen((unsigned int)rsa_bits) : EVP_EC_gen("P-256");
    X509 *cert = X509_new();
    BIO *cert_bio = BIO_new(BIO_s_mem());
    BIO *key_bio = BIO_new(BIO_s_mem());
    if (!key || !cert || !cert_bio || !key_bio) goto done;
    X509_set_version(cert, 2);
    unsigned char serial[16];
    if (RAND_bytes(serial, sizeof serial) != 1) goto done;
    serial[0] &= 0x7f;
    BIGNUM *bn = BN_bin2bn(serial, sizeof serial, NULL);
    BN_to_ASN1_INTEGER(bn, X509_get_serialNumber(cert));
    BN_free(bn);
    X509_gmtime_adj(X509_getm_notBefore(cert), -3600);
    X509_gmtime_adj(X509_getm_notAfter(cert), 10L * 365 * 24 * 3600);
    X509_set_pubkey(cert, key);
    X509_NAME *name = X509_get_subject_name(cert);
    X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8, (const unsigned char *)common_name, -1, -1, 0);
    X509_set_issuer_name(cert, name);
    if (subject_alt_names != NULL && subject_alt_names[0] != 0) {
        X509V3_CTX v3;
        X509V3_set_ctx_nodb(&v3);
        X509V3_set_ctx(&v3, cert, cert, NULL, NULL, 0);
        X509_EXTENSION *ext = X509V3_EXT_conf_nid(NULL, &v3, NID_subject_alt_name, subject_alt_names);
        if (ext == NULL) goto done;
        X509_add_ext(cert, ext, -1);
        X509_EXTENSION_free(ext);
    }
    if (!X509_sign(cert, key, EVP_sha256())) goto done;
    if (!PEM_write_bio_X509(cert_bio, cert)) goto done;
    if (!PEM_write_bio_PrivateKey(key_bio, key, NULL, NULL, 0, NULL, NULL)) goto done;
    *cert_pem = bio_to_string(cert_bio);
    *key_pem = bio_to_string(key_bio);
    ok = *cert_pem != NULL && *key_pem != NULL;
done:
    BIO_free(cert_bio);
    BIO_free(key_bio);
    X509_free(cert);
    EVP_PKEY_free(key);
    return ok;
}

static int rsa_public_key(EVP_PKEY *key, unsigned char *modulus, size_t *modulus_length, unsigned char *exponent,
                          size_t *exponent_length) {
    BIGNUM *n = NULL, *e = NULL;
    int ok = key != NULL && EVP_PKEY_get_base_id(key) == EVP_PKEY_RSA && EVP_PKEY_get_bn_param(key, "n", &n) &&
             EVP_PKEY_get_bn_param(key, "e", &e) && (size_t)BN_num_bytes(n) <= *modulus_length &&
             (size_t)BN_num_bytes(e) <= *exponent_length;
    if (ok) {
        *modulus_length = (size_t)BN_bn2bin(n, modulus);
        *exponent_length = (size_t)BN_bn2bin(e, exponent);
    }
    BN_free(n);
    BN_free(e);
    return ok;
}

int csys_peer_rsa_public_key(SSL *ssl, unsigned char *modulus, size_t *modulus_length, unsigned char *exponent,
                             size_t *exponent_length) {
    X509 *cert = SSL_get1_peer_certificate(ssl);
    if (cert == NULL) return 0;
    int ok = rsa_public_key(X509_get0_pubkey(cert), modulus, modulus_length, exponent, exponent_length);
    X509_free(cert);
    return ok;
}

int csys_pem_rsa_public_key(const char *cert_pem, unsigned char *modulus, size_t *modulus_length,
                            unsigned char *exponent, size_t *exponent_length) {
    BIO *bio = BIO_new_mem_buf(cert_pem, -1);
    X509 *cert = bio ? PEM_read_bio_X509(bio, NULL, NULL, NULL) : NULL;
    int ok = cert != NULL && rsa_public_key(X509_get0_pubkey(cert), modulus, modulus_length, exponent, exponent_length);
    X509_free(cert);
    BIO_free(bio);
    return ok;
}

static int accept_any_certificate(int preverified, X509_STORE_CTX *store) {
    (void)preverified;
    (void)store;
    return 1;
}

void csys_SSL_CTX_request_client_certificate(SSL_CTX *ctx) {
    SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, accept_any_certificate);
}

typedef struct {
    size_t count;
    unsigned char digests[];
} client_pins;

static int client_pins_index = -1;
static pthread_once_t client_pins_once = PTHREAD_ONCE_INIT;

static void free_client_pins(void *parent, void *pins, CRYPTO_EX_DATA *data, int index, long argl, void *argp) {
    (void)parent, (void)data, (void)index, (void)argl, (void)argp;
    free(pins);
}

static void make_client_pins_index(void) {
    client_pins_index = SSL_get_ex_new_index(0, NULL, NULL, NULL, free_client_pins);
}

static int accept_pinned_client_certificate(int preverified, X509_STORE_CTX *store) {
    (void)preverified;
    if (X509_STORE_CTX_get_error_depth(store) != 0) return 1;
    SSL *ssl = X509_STORE_CTX_get_ex_data(store, SSL_get_ex_data_X509_STORE_CTX_idx());
    client_pins *pins = ssl ? SSL_get_ex_data(ssl, client_pins_index) : NULL;
    X509 *cert = X509_STORE_CTX_get_current_cert(store);
    unsigned char digest[32];
    unsigned int length = 0;
    if (pins && cert && X509_digest(cert, EVP_sha256(), digest, &length) == 1 && length == 32) {
        for (size_t i = 0; i < pins->count; i++)
            if (memcmp(pins->digests + i * 32, digest, 32) == 0) return 1;
    }
    // Chosen for its alert: OpenSSL answers this error with certificate_unknown (46), what an
    // Android TV sends a client it has not paired.
    X509_STORE_CTX_set_error(store, X509_V_ERR_SUBJECT_ISSUER_MISMATCH);
    return 0;
}

int csys_SSL_accept_only_client_certificates(SSL *ssl, const unsigned char *digests, size_t count) {
    pthread_once(&client_pins_once, make_client_pins_index);
    if (client_pins_index < 0) return 0;
    client_pins *pins = malloc(sizeof(client_pins) + count * 32);
    if (pins == NULL) return 0;
    pins->count = count;
    if (count > 0) memcpy(pins->digests, digests, count * 32);
    if (SSL_set_ex_data(ssl, client_pins_index, pins) != 1) {
        free(pins);
        return 0;
    }
    SSL_set_verify(ssl, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT, accept_pinned_client_certificate);
    return 1;
}

int csys_ssl_peer_refused_certificate(void) {
    unsigned long code = ERR_peek_error();
    if (ERR_GET_LIB(code) != ERR_LIB_SSL) return 0;
    switch (ERR_GET_REASON(code)) {
    case SSL_R_SSLV3_ALERT_BAD_CERTIFICATE:
    case SSL_R_SSLV3_ALERT_UNSUPPORTED_CERTIFICATE:
    case SSL_R_SSLV3_ALERT_CERTIFICATE_REVOKED:
    case SSL_R_SSLV3_ALERT_CERTIFICATE_EXPIRED:
    case SSL_R_SSLV3_ALERT_CERTIFICATE_UNKNOWN:
    case SSL_R_TLSV1_ALERT_UNKNOWN_CA:
    case SSL_R_TLSV13_ALERT_CERTIFICATE_REQUIRED:
        return 1;
    default:
        return 0;
    }
}

int csys_ctx_use_pem(SSL_CTX *ctx, const char *cert_pem, const char *key_pem) {
    int ok = 0;
    BIO *cert_bio = BIO_new_mem_buf(cert_pem, -1);
    BIO *key_bio = BIO_new_mem_buf(key_pem, -1);
    X509 *cert = cert_bio ? PEM_read_bio_X509(cert_bio, NULL, NULL, NULL) : NULL;
    EVP_PKEY *key = key_bio ? PEM_read_bio_PrivateKey(key_bio, NULL, NULL, NULL) : NULL;
    if (cert && key && SSL_CTX_use_certificate(ctx, cert) == 1 && SSL_CTX_use_PrivateKey(ctx, key) == 1)
        ok = SSL_CTX_check_private_key(ctx) == 1;
    X509_free(cert);
    EVP_PKEY_free(key);
    BIO_free(cert_bio);
    BIO_free(key_bio);
    return ok;
}

int csys_malloc_arena_max(int count) { return mallopt(M_ARENA_MAX, count); }
int csys_malloc_mmap_threshold(int bytes) { return mallopt(M_MMAP_THRESHOLD, bytes); }

// MARK: Swift concurrency's global executor
//
// The hooks are the runtime's documented override points (swift/Runtime/ConcurrencyHooks.def),
// called with the Swift calling convention; each receives the original implementation last,
// which we never call: once installed, the process's global executor is ours.

#include <time.h>
#include <sys/prctl.h>

void csys_name_thread(const char *name) { prctl(PR_SET_NAME, name, 0, 0, 0); }

static csys_job_sink job_now;
static csys_delayed_job_sink job_later;

extern __attribute__((swiftcall)) void (*swift_task_enqueueGlobal_hook)(void *job, void *original);
extern __attribute__((swiftcall)) void (*swift_task_enqueueGlobalWithDelay_hook)(
    unsigned long long delay, void *job, void *original);
extern __attribute__((swiftcall)) void (*swift_task_enqueueGlobalWithDeadline_hook)(
    long long sec, long long nsec, long long tsec, long long tnsec, int clock, void *job, void *original);

__attribute__((swiftcall)) static void enqueue_now(void *job, void *original) {
    (void)original;
    job_now(job);
}

__attribute__((swiftcall)) static void enqueue_after(unsigned long long delay, void *job, void *original) {
    (void)original;
    job_later(job, delay);
}

// `clock` is the runtime's clock id: 1 continuous (CLOCK_BOOTTIME), 2 suspending (CLOCK_MONOTONIC).
__attribute__((swiftcall)) static void enqueue_at(long long sec, long long nsec, long long tsec, long long tnsec,
                                                  int clock, void *job, void *original) {
    (void)tsec;
    (void)tnsec;
    (void)original;
    struct timespec now;
    clock_gettime(clock == 1 ? CLOCK_BOOTTIME : CLOCK_MONOTONIC, &now);
    long long delay = (sec - (long long)now.tv_sec) * 1000000000LL + (nsec - (long long)now.tv_nsec);
    job_later(job, delay > 0 ? (uint64_t)delay : 0);
}

// swift_job_run(Job *, SerialExecutorRef): the executor reference is a two-word struct, which
// the Swift calling convention passes as two words; {NULL, 0} is the generic executor.
extern __attribute__((swiftcall)) void swift_job_run(void *job, void *identity, uintptr_t implementation);

void csys_run_job(void *job) { swift_job_run(job, NULL, 0); }

void csys_install_global_executor(csys_job_sink now, csys_delayed_job_sink later) {
    job_now = now;
    job_later = later;
    swift_task_enqueueGlobal_hook = enqueue_now;
    swift_task_enqueueGlobalWithDelay_hook = enqueue_after;
    swift_task_enqueueGlobalWithDeadline_hook = enqueue_at;
}
