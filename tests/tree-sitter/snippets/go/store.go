// Package store keeps sessions in memory with periodic expiry.
package store

import (
	"context"
	"fmt"
	"sync"
	"time"

	log "github.com/sirupsen/logrus"
	yaml "gopkg.in/yaml.v3"
	_ "embed"
)

// DefaultTTL is how long a session lives without use.
const DefaultTTL = 30 * time.Minute

// Store is the session storage contract.
type Store interface {
	fmt.Stringer
	Get(ctx context.Context, id string) (*Session, error)
	Put(ctx context.Context, s *Session) error
}

// Session is one logged-in user.
type Session struct {
	sync.Mutex
	ID      string
	Expires time.Time
}

// MemoryStore is a Store held in a map.
type MemoryStore struct {
	*Session
	items map[string]*Session
}

// NewMemoryStore returns an empty store.
func NewMemoryStore() *MemoryStore {
	return &MemoryStore{items: make(map[string]*Session)}
}

// Get returns the session or an error when it expired.
func (m *MemoryStore) Get(ctx context.Context, id string) (*Session, error) {
	s, ok := m.items[id]
	if !ok || time.Now().After(s.Expires) {
		return nil, fmt.Errorf("session %q: %w", id, context.Canceled)
	}
	log.WithField("id", id).Debug("hit")
	return s, nil
}

func (m MemoryStore) String() string {
	out, _ := yaml.Marshal(m.items)
	return string(out)
}
