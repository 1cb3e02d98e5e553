// Package parquet writes the Parquet files of a ponte database (games.parquet,
// turns.parquet, tags.parquet): their rows, typed, the files written a row group at a
// time on goroutines of their own, the turns unpacked from their packed text
// (internal/turntext). It knows no SQL: the store reads the tables and feeds it rows.
package parquet

// GameRow is one row of games.parquet: the columns of the games table in the same order
// (docs/schema.md), with SQL NULL as a nil pointer and BOOLEAN as bool, except that date
// is a DATE (days since 1970-01-01; nil unless a whole date); then the columns derived from
// them that the statistics use (gamesParquet). The columns that `ponte verify --json` also
// prints hold the same values under the same names.
type GameRow struct {
	ID                int64   `parquet:"id,delta"`
	GameID            string  `parquet:"game_id"`
	SourceID          int64   `parquet:"source_id"`
	Source            string  `parquet:"source,dict"`
	FileIndex         int32   `parquet:"file_index"`
	Line              int32   `parquet:"line"`
	Format            string  `parquet:"format,dict"`
	Event             *string `parquet:"event,optional,dict"`
	Site              *string `parquet:"site,optional,dict"`
	Date              *int32  `parquet:"date,optional,date"`
	Round             *string `parquet:"round,optional"`
	RecordID          *string `parquet:"record_id,optional"`
	Light             *string `parquet:"light,optional,dict"`
	Dark              *string `parquet:"dark,optional,dict"`
	Opener            *string `parquet:"opener,optional,dict"`
	Swapped           bool    `parquet:"swapped"`
	Size              int32   `parquet:"size"`
	Supply            string  `parquet:"supply,dict"`
	ClaimedResult     string  `parquet:"claimed_result,dict"`
	Termination       *string `parquet:"termination,optional,dict"`
	ClaimedScoreLight *int32  `parquet:"claimed_score_light,optional"`
	ClaimedScoreDark  *int32  `parquet:"claimed_score_dark,optional"`
	Legal             bool    `parquet:"legal"`
	Unreadable        bool    `parquet:"unreadable"`
	ErrorRule         *string `parquet:"error_rule,optional,dict"`
	ErrorTurn         *int32  `parquet:"error_turn,optional"`
	ErrorLine         *int32  `parquet:"error_line,optional"`
	ErrorCol          *int32  `parquet:"error_col,optional"`
	ErrorMessage      *string `parquet:"error_message,optional"`
	TagErrors         *string `parquet:"tag_errors,optional"`
	Turns             int32   `parquet:"turns"`
	Over              bool    `parquet:"over"`
	Result            *string `parquet:"result,optional,dict"`
	Winner            *string `parquet:"winner,optional,dict"`
	TieBreak          *string `parquet:"tiebreak,optional,dict"`
	ScoreLight        *int32  `parquet:"score_light,optional"`
	ScoreDark         *int32  `parquet:"score_dark,optional"`
	IslandsLight      *int32  `parquet:"islands_light,optional"`
	IslandsDark       *int32  `parquet:"islands_dark,optional"`
	BridgesLight      *int32  `parquet:"bridges_light,optional"`
	BridgesDark       *int32  `parquet:"bridges_dark,optional"`
	Margin            *int32  `parquet:"margin,optional"`
	OpeningA          *string `parquet:"opening_a,optional,dict"`
	OpeningB          *string `parquet:"opening_b,optional,dict"`
	Moves             string  `parquet:"moves"`
	Raw               *string `parquet:"raw,optional"`
	Duplicates        int32   `parquet:"duplicates"`
	ComponentsLight   *string `parquet:"components_light,optional,dict"`
	ComponentsDark    *string `parquet:"components_dark,optional,dict"`
	MoveNumbers       *string `parquet:"move_numbers,optional"`
	// The derived columns (gamesParquet).
	Opening     *string  `parquet:"opening,optional,dict"`
	FinalResult *string  `parquet:"final_result,optional,dict"`
	Decided     bool     `parquet:"decided"`
	OpenerScore *float64 `parquet:"opener_score,optional"`
	Population  string   `parquet:"population,dict"`
	DateText    *string  `parquet:"date_text,optional,dict"`
}

// TurnRow is one row of the turns table as turns.parquet holds it. The running values
// are DELTA_BINARY_PACKED: they move by little from turn to turn, and bit-packed deltas
// leave zstd a tenth of the bytes of plain 32-bit integers.
type TurnRow struct {
	Game             int64   `parquet:"game,delta"`
	Turn             int32   `parquet:"turn,delta"`
	Colour           string  `parquet:"colour,dict"`
	Kind             string  `parquet:"kind,dict"`
	A                *string `parquet:"a,optional,dict"`
	B                *string `parquet:"b,optional,dict"`
	IslandsFormed    int32   `parquet:"islands_formed,delta"`
	GroupA           *int32  `parquet:"group_a,optional"`
	GroupB           *int32  `parquet:"group_b,optional"`
	BridgeShape      *string `parquet:"bridge_shape,optional,dict"`
	BridgeEndA       *int32  `parquet:"bridge_end_a,optional"`
	BridgeEndB       *int32  `parquet:"bridge_end_b,optional"`
	BridgeMerged     *bool   `parquet:"bridge_merged,optional"`
	LargestComponent int32   `parquet:"largest_component,delta"`
	ScoreLight       int32   `parquet:"score_light,delta"`
	ScoreDark        int32   `parquet:"score_dark,delta"`
	IslandsLight     int32   `parquet:"islands_light,delta"`
	IslandsDark      int32   `parquet:"islands_dark,delta"`
	SandbanksLight   int32   `parquet:"sandbanks_light,delta"`
	SandbanksDark    int32   `parquet:"sandbanks_dark,delta"`
	DeadLight        int32   `parquet:"dead_light,delta"`
	DeadDark         int32   `parquet:"dead_dark,delta"`
	DeadCreatedLight int32   `parquet:"dead_created_light,delta"`
	DeadCreatedDark  int32   `parquet:"dead_created_dark,delta"`
	MobilityLight    int32   `parquet:"mobility_light,delta"`
	MobilityDark     int32   `parquet:"mobility_dark,delta"`
	ThinkMS          *int32  `parquet:"think_ms,optional"`
}

// Rows per row group: a row group's pages stay in memory until it is written, so bounding
// them bounds the export's memory; a few hundred thousand rows still let DuckDB read the
// groups in parallel and skip them by their statistics.
const (
	GamesPerRowGroup = 16 << 10
	TurnsPerRowGroup = 128 << 10
)

// TagRow is one row of tags.parquet (tagsParquet).
type TagRow struct {
	GameID string `parquet:"game_id"`
	Seq    int32  `parquet:"seq"`
	Name   string `parquet:"name,dict"`
	Value  string `parquet:"value"`
}

// Rows per row group of tags.parquet: a game has about ten tags.
const TagsPerRowGroup = 128 << 10

// Slab hands out pointers for the optional fields of a batch of rows, a few allocations
// for many values.
type Slab struct {
	ints  []int32
	bools []bool
	strs  []string
}

func (s *Slab) Int32p(v int32) *int32 {
	if len(s.ints) == cap(s.ints) {
		s.ints = make([]int32, 0, 4096)
	}
	s.ints = append(s.ints, v)
	return &s.ints[len(s.ints)-1]
}

func (s *Slab) Boolp(v bool) *bool {
	if len(s.bools) == cap(s.bools) {
		s.bools = make([]bool, 0, 1024)
	}
	s.bools = append(s.bools, v)
	return &s.bools[len(s.bools)-1]
}

func (s *Slab) Stringp(v string) *string {
	if len(s.strs) == cap(s.strs) {
		s.strs = make([]string, 0, 2048)
	}
	s.strs = append(s.strs, v)
	return &s.strs[len(s.strs)-1]
}
