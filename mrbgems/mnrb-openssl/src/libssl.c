/*
 * libssl and libcrypto, loaded at the first `require "openssl"` (dlopen), not at every start.
 *
 * CRuby keeps OpenSSL in openssl.so, a shared object linked to libssl.so.3 that the first require
 * loads. mnrb is one executable: the OpenSSL calls of this gem's C (digest.c, cipher.c, ...) are
 * written as ordinary calls, and each called function is defined here as a trampoline, a jump
 * through its slot in ossl_fn_slots. The slots are zero until ossl_libssl_load, called by the
 * feature's init before it defines anything, opens Debian's libssl.so.3 (which brings
 * libcrypto.so.3) and fills every slot with dlsym. No OpenSSL code or data is mapped, relocated
 * or run before that: a process that never requires openssl pays nothing for it (the static
 * libssl.a and libcrypto.a this replaces cost every process 5 MB of binary, ~1.3 MB of RSS and
 * ~240K instructions of relocations at start; docs/PERFORMANCE.md).
 *
 * OSSL_FUNCTIONS lists every OpenSSL function the gem calls. Nothing links libssl or libcrypto,
 * so a call to a function missing from it fails the build ("undefined reference to
 * `EVP_foo'"): add the name here. Every name is resolved at load, so a libssl.so.3 older than
 * the headers fails at require with dlsym's "undefined symbol" instead of crashing later.
 *
 * A failed load raises LoadError with CRuby's wording, dlerror's text then " - " and the file
 * (CRuby: "libssl.so.3: cannot open shared object file: No such file or directory -
 * /usr/lib/x86_64-linux-gnu/ruby/3.1.0/openssl.so"; here the feature's entry, openssl.so), and
 * nothing is defined: require may be tried again.
 *
 * The slots are the process's, filled once under load_lock (ractors may require concurrently),
 * then published by `loaded` (release store; every caller of an OpenSSL function got past a
 * load that read it with acquire, or runs after such a caller under its ractor's GVL). fork takes
 * the lock (pthread_atfork), so a child never starts with it held mid-load.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <openssl/opensslv.h>
#include <mruby.h>
#include <mruby/error.h>
#include <mruby/string.h>
#include "ossl.h"

#define OSSL_FUNCTIONS(X) \
  X(ASN1_INTEGER_free) X(ASN1_INTEGER_to_BN) X(ASN1_OBJECT_free) X(ASN1_STRING_get0_data) \
  X(ASN1_STRING_length) X(ASN1_STRING_print) X(ASN1_STRING_type) X(ASN1_TIME_diff) X(ASN1_TIME_free) \
  X(ASN1_TIME_set) X(ASN1_TIME_to_tm) \
  X(BIO_ctrl) X(BIO_free) X(BIO_new) X(BIO_new_mem_buf) X(BIO_s_mem) \
  X(BN_bn2hex) X(BN_check_prime) X(BN_free) X(BN_hex2bn) X(BN_to_ASN1_INTEGER) \
  X(CRYPTO_free) X(CRYPTO_memcmp) \
  X(ERR_clear_error) X(ERR_peek_error) X(ERR_peek_last_error_all) X(ERR_reason_error_string) \
  X(EVP_CIPHER_CTX_copy) X(EVP_CIPHER_CTX_ctrl) X(EVP_CIPHER_CTX_free) \
  X(EVP_CIPHER_CTX_get_block_size) X(EVP_CIPHER_CTX_get_key_length) X(EVP_CIPHER_CTX_new) \
  X(EVP_CIPHER_CTX_set_key_length) X(EVP_CIPHER_CTX_set_padding) X(EVP_CIPHER_do_all_provided) \
  X(EVP_CIPHER_fetch) X(EVP_CIPHER_free) X(EVP_CIPHER_get0_name) X(EVP_CIPHER_get_flags) \
  X(EVP_CIPHER_get_iv_length) X(EVP_CIPHER_up_ref) X(EVP_CipherFinal_ex) X(EVP_CipherInit_ex) \
  X(EVP_CipherUpdate) X(EVP_DigestFinal_ex) X(EVP_DigestInit_ex) X(EVP_DigestSign) \
  X(EVP_DigestSignInit) X(EVP_DigestUpdate) X(EVP_DigestVerify) X(EVP_DigestVerifyInit) \
  X(EVP_MAC_CTX_dup) X(EVP_MAC_CTX_free) X(EVP_MAC_CTX_new) X(EVP_MAC_fetch) X(EVP_MAC_final) \
  X(EVP_MAC_free) X(EVP_MAC_init) X(EVP_MAC_update) X(EVP_MD_CTX_copy_ex) X(EVP_MD_CTX_free) \
  X(EVP_MD_CTX_get0_md) X(EVP_MD_CTX_new) X(EVP_MD_get0_name) X(EVP_MD_get_block_size) \
  X(EVP_MD_get_size) X(EVP_MD_get_type) X(EVP_PKEY_Q_keygen) X(EVP_PKEY_free) \
  X(EVP_PKEY_get0_type_name) X(EVP_PKEY_get_bits) X(EVP_PKEY_get_bn_param) \
  X(EVP_PKEY_get_utf8_string_param) X(EVP_PKEY_is_a) X(EVP_get_digestbyname) \
  X(OBJ_nid2sn) X(OBJ_obj2nid) X(OBJ_obj2txt) X(OBJ_txt2obj) \
  X(OPENSSL_sk_num) X(OPENSSL_sk_value) \
  X(OSSL_DECODER_CTX_free) X(OSSL_DECODER_CTX_new_for_pkey) X(OSSL_DECODER_CTX_set_passphrase) \
  X(OSSL_DECODER_from_data) X(OSSL_ENCODER_CTX_free) X(OSSL_ENCODER_CTX_new_for_pkey) \
  X(OSSL_ENCODER_to_data) X(OSSL_PARAM_construct_end) X(OSSL_PARAM_construct_utf8_string) \
  X(OpenSSL_version) \
  X(PEM_read_bio_X509) X(PEM_write_bio_X509) \
  X(PKCS5_PBKDF2_HMAC) \
  X(RAND_bytes) \
  X(SSL_CIPHER_get_bits) X(SSL_CIPHER_get_name) X(SSL_CIPHER_get_version) \
  X(SSL_CTX_check_private_key) X(SSL_CTX_clear_options) X(SSL_CTX_ctrl) X(SSL_CTX_free) \
  X(SSL_CTX_get_ciphers) X(SSL_CTX_get_options) X(SSL_CTX_load_verify_locations) X(SSL_CTX_new) \
  X(SSL_CTX_set_alpn_protos) X(SSL_CTX_set_cert_store) X(SSL_CTX_set_cipher_list) \
  X(SSL_CTX_set_options) X(SSL_CTX_set_verify) X(SSL_CTX_use_PrivateKey) X(SSL_CTX_use_certificate) \
  X(SSL_accept) X(SSL_connect) X(SSL_ctrl) X(SSL_free) X(SSL_get0_alpn_selected) X(SSL_get0_param) \
  X(SSL_get1_peer_certificate) X(SSL_get_current_cipher) X(SSL_get_error) X(SSL_get_shutdown) \
  X(SSL_get_verify_result) X(SSL_get_version) X(SSL_is_init_finished) X(SSL_new) X(SSL_pending) \
  X(SSL_read) X(SSL_session_reused) X(SSL_set_accept_state) X(SSL_set_connect_state) X(SSL_set_fd) \
  X(SSL_shutdown) X(SSL_state_string) X(SSL_state_string_long) X(SSL_write) \
  X(TLS_method) \
  X(X509V3_EXT_nconf) X(X509V3_EXT_print) X(X509V3_set_ctx) \
  X(X509_EXTENSION_dup) X(X509_EXTENSION_free) X(X509_EXTENSION_get_critical) \
  X(X509_EXTENSION_get_data) X(X509_EXTENSION_get_object) X(X509_NAME_ENTRY_get_data) \
  X(X509_NAME_ENTRY_get_object) X(X509_NAME_add_entry_by_txt) X(X509_NAME_cmp) X(X509_NAME_dup) \
  X(X509_NAME_entry_count) X(X509_NAME_free) X(X509_NAME_get_entry) X(X509_NAME_new) \
  X(X509_NAME_oneline) X(X509_NAME_print_ex) X(X509_STORE_CTX_free) X(X509_STORE_CTX_get_error) \
  X(X509_STORE_CTX_init) X(X509_STORE_CTX_new) X(X509_STORE_add_cert) X(X509_STORE_free) \
  X(X509_STORE_load_file) X(X509_STORE_load_path) X(X509_STORE_new) X(X509_STORE_set_default_paths) \
  X(X509_STORE_up_ref) X(X509_VERIFY_PARAM_set1_host) X(X509_VERIFY_PARAM_set1_ip_asc) \
  X(X509_VERIFY_PARAM_set_hostflags) X(X509_add_ext) X(X509_check_host) X(X509_check_ip_asc) \
  X(X509_check_private_key) X(X509_free) X(X509_get0_notAfter) X(X509_get0_notBefore) \
  X(X509_get0_serialNumber) X(X509_get_default_cert_dir) X(X509_get_default_cert_file) \
  X(X509_get_ext) X(X509_get_ext_count) X(X509_get_issuer_name) X(X509_get_pubkey) \
  X(X509_get_subject_name) X(X509_get_version) X(X509_new) X(X509_set1_notAfter) \
  X(X509_set1_notBefore) X(X509_set_issuer_name) X(X509_set_pubkey) X(X509_set_serialNumber) \
  X(X509_set_subject_name) X(X509_set_version) X(X509_sign) X(X509_verify) X(X509_verify_cert) \
  X(X509_verify_cert_error_string) \
  X(d2i_PUBKEY) X(d2i_X509) X(i2d_PUBKEY) X(i2d_X509)

/* The slots and the trampolines, in one asm statement so that slot i is ossl_fn_slots[i] in the
   list's order. Hidden: nothing of them is exported from the executable, so a libcrypto loaded
   by something else never binds to them. A trampoline is a tail jump: any signature, varargs
   included, passes through untouched. */
#define OSSL_SLOT(f) ".Lslot_" #f ": .zero 8\n"
/* x86-64 only, as core's coroutine_x86_64.S. A landing pad first when the build marks the
   executable for indirect-branch tracking: OpenSSL may call a trampoline through a pointer (an
   X509_free given to a stack's pop_free). */
#if !defined(__x86_64__)
#error "mnrb-openssl: no trampoline for this architecture (src/libssl.c)"
#endif
#if defined(__CET__) && (__CET__ & 1)
#define OSSL_PAD "\tendbr64\n"
#else
#define OSSL_PAD ""
#endif
#define OSSL_JUMP(f) OSSL_PAD "\tjmp *.Lslot_" #f "(%rip)\n"
#define OSSL_TRAMPOLINE(f) \
  ".globl " #f "\n.hidden " #f "\n.type " #f ", @function\n.balign 8\n" #f ":\n" OSSL_JUMP(f) ".size " #f ", .-" #f "\n"

__asm__(".pushsection .bss\n.balign 8\n.globl ossl_fn_slots\n.hidden ossl_fn_slots\nossl_fn_slots:\n"
        OSSL_FUNCTIONS(OSSL_SLOT) ".popsection\n"
        ".pushsection .text\n" OSSL_FUNCTIONS(OSSL_TRAMPOLINE) ".popsection\n");

extern void *ossl_fn_slots[];   /* written only by ossl_libssl_load, under load_lock */

#define OSSL_NAME(f) #f "\0"
#define OSSL_COUNT(f) + 1
static const char fn_names[] = OSSL_FUNCTIONS(OSSL_NAME);
enum { FN_COUNT = 0 OSSL_FUNCTIONS(OSSL_COUNT) };

#define OSSL_STR2(x) #x
#define OSSL_STR(x) OSSL_STR2(x)
/* libssl's soname for the headers the gem is built with (Debian's libssl3: libssl.so.3) */
#define LIBSSL_SONAME "libssl.so." OSSL_STR(OPENSSL_SHLIB_VERSION)

static pthread_mutex_t load_lock = PTHREAD_MUTEX_INITIALIZER;
static int loaded;                /* 1 once every slot is filled; atomic (release/acquire) */

static void lock_for_fork(void) { pthread_mutex_lock(&load_lock); }
static void unlock_after_fork(void) { pthread_mutex_unlock(&load_lock); }
static void fork_handlers(void) { pthread_atfork(lock_for_fork, unlock_after_fork, unlock_after_fork); }

/* Opens libssl and fills the slots; NULL, or dlerror's text in err. Under load_lock. */
static const char *
open_and_resolve(char *err, size_t n)
{
  void *lib = dlopen(LIBSSL_SONAME, RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    snprintf(err, n, "%s", dlerror());
    return err;
  }
  const char *name = fn_names;
  for (int i = 0; i < FN_COUNT; i++, name += strlen(name) + 1) {
    dlerror();
    void *f = dlsym(lib, name);
    if (!f) {
      const char *e = dlerror();
      snprintf(err, n, "%s", e ? e : name);
      dlclose(lib);
      return err;
    }
    ossl_fn_slots[i] = f;
  }
  return NULL;                    /* lib stays open for the process's life, as CRuby's openssl.so */
}

/* LoadError "<dlerror> - openssl.so", its backtrace starting at the require's caller as
   require's own LoadErrors do (MNRB::Loader.backtrace_from_require leaves the loader's frames out) */
static mrb_noreturn void
raise_load_error(mrb_state *mrb, const char *text)
{
  mrb_value e = mrb_exc_new_str(mrb, mrb_class_get(mrb, "LoadError"), mrb_format(mrb, "%s - openssl.so", text));
  mrb_value loader = mrb_obj_value(mrb_module_get_under(mrb, mrb_module_get(mrb, "MNRB"), "Loader"));
  mrb_value bt = mrb_funcall(mrb, mrb_top_self(mrb), "caller", 0);
  mrb_funcall(mrb, e, "set_backtrace", 1, mrb_funcall(mrb, loader, "backtrace_from_require", 1, bt));
  mrb_exc_raise(mrb, e);
}

void
ossl_libssl_load(mrb_state *mrb)
{
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  if (__atomic_load_n(&loaded, __ATOMIC_ACQUIRE)) return;
  pthread_once(&once, fork_handlers);
  char err[512];
  const char *failed = NULL;
  pthread_mutex_lock(&load_lock);
  if (!__atomic_load_n(&loaded, __ATOMIC_RELAXED)) {
    failed = open_and_resolve(err, sizeof err);
    if (!failed) __atomic_store_n(&loaded, 1, __ATOMIC_RELEASE);
  }
  pthread_mutex_unlock(&load_lock);
  if (failed) raise_load_error(mrb, failed);
}
